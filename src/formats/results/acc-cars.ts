/**
 * ACC's car model ids (the PC server's numbering, Server Admin Handbook "car model list", as also listed by
 * mauserrifle/simresults): a result file names a car by this number only. The class is the car's group (the
 * server's car groups GT3, GT4, GT2, GTC, TCX); a newer file says it itself (`carGroup`), an older one is read by
 * this table. An id not listed is named "car model N" with no class.
 */

interface AccCar {
	readonly name: string;
	readonly group: string;
}

const gt3 = (name: string): AccCar => ({ name, group: 'GT3' });
const gt4 = (name: string): AccCar => ({ name, group: 'GT4' });
const gt2 = (name: string): AccCar => ({ name, group: 'GT2' });
/** The one-make cup cars race in the server's GTC group. */
const gtc = (name: string): AccCar => ({ name, group: 'GTC' });

const CARS: Readonly<Record<number, AccCar>> = {
	0: gt3('Porsche 991 GT3 R'),
	1: gt3('Mercedes-AMG GT3'),
	2: gt3('Ferrari 488 GT3'),
	3: gt3('Audi R8 LMS'),
	4: gt3('Lamborghini Huracan GT3'),
	5: gt3('McLaren 650S GT3'),
	6: gt3('Nissan GT-R Nismo GT3 2018'),
	7: gt3('BMW M6 GT3'),
	8: gt3('Bentley Continental GT3 2018'),
	9: gtc('Porsche 991 II GT3 Cup'),
	10: gt3('Nissan GT-R Nismo GT3 2015'),
	11: gt3('Bentley Continental GT3 2015'),
	12: gt3('Aston Martin V12 Vantage GT3'),
	13: gt3('Lamborghini Gallardo R-EX'),
	14: gt3('Jaguar G3'),
	15: gt3('Lexus RC F GT3'),
	16: gt3('Lamborghini Huracan GT3 Evo'),
	17: gt3('Honda NSX GT3'),
	18: gtc('Lamborghini Huracan Super Trofeo'),
	19: gt3('Audi R8 LMS Evo'),
	20: gt3('Aston Martin V8 Vantage GT3'),
	21: gt3('Honda NSX GT3 Evo'),
	22: gt3('McLaren 720S GT3'),
	23: gt3('Porsche 991 II GT3 R'),
	24: gt3('Ferrari 488 GT3 Evo'),
	25: gt3('Mercedes-AMG GT3 2020'),
	26: gtc('Ferrari 488 Challenge Evo'),
	27: { name: 'BMW M2 CS Racing', group: 'TCX' },
	28: gtc('Porsche 992 GT3 Cup'),
	29: gtc('Lamborghini Huracan Super Trofeo Evo2'),
	30: gt3('BMW M4 GT3'),
	31: gt3('Audi R8 LMS Evo II'),
	32: gt3('Ferrari 296 GT3'),
	33: gt3('Lamborghini Huracan GT3 Evo2'),
	34: gt3('Porsche 992 GT3 R'),
	35: gt3('McLaren 720S GT3 Evo'),
	36: gt3('Ford Mustang GT3'),
	50: gt4('Alpine A110 GT4'),
	51: gt4('Aston Martin V8 Vantage GT4'),
	52: gt4('Audi R8 LMS GT4'),
	53: gt4('BMW M4 GT4'),
	55: gt4('Chevrolet Camaro GT4.R'),
	56: gt4('Ginetta G55 GT4'),
	57: gt4('KTM X-Bow GT4'),
	58: gt4('Maserati MC GT4'),
	59: gt4('McLaren 570S GT4'),
	60: gt4('Mercedes-AMG GT4'),
	61: gt4('Porsche 718 Cayman GT4 Clubsport'),
	80: gt2('Audi R8 LMS GT2'),
	82: gt2('KTM X-Bow GT2'),
	83: gt2('Maserati MC20 GT2'),
	84: gt2('Mercedes-AMG GT2'),
	85: gt2('Porsche 911 GT2 RS CS Evo'),
	86: gt2('Porsche 935'),
};

export function accCar(model: unknown): { readonly name?: string; readonly group?: string } {
	if (typeof model !== 'number' || !Number.isInteger(model)) return {};
	return CARS[model] ?? { name: `car model ${model}` };
}
