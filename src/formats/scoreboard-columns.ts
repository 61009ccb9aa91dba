/**
 * Column names of pasted results: the header row of a spreadsheet copy, a sim's results page or a CSV
 * export, in English and the usual abbreviations of German, French, Spanish, Italian and Hungarian results tables.
 * Pure data and one look-up; docs/scoreboard.md lists the words.
 */

/** What a column holds. `ignored` columns are known (car, team, best lap, …) and skipped without a warning. */
export type ColumnRole = 'position' | 'player' | 'time' | 'gap' | 'status' | 'points' | 'laps' | 'ignored';

/**
 * Lowercased column names, without a trailing `.` or `:`. Only words in common use on results tables: F1 and
 * sim-racing results pages in each language (Pos./Fahrer/Zeit/Abstand/Runden/Punkte, Pos./Pilote/Temps/Écart/Tours,
 * Pos./Piloto/Tiempo/Dif./Vueltas/Puntos, Pos./Pilota/Tempo/Distacco/Giri/Punti, Hely/Versenyző/Idő/Kör/Pont).
 */
const COLUMN_WORDS: Readonly<Record<ColumnRole, readonly string[]>> = {
	position: [
		'pos',
		'position',
		'p',
		'place',
		'pl',
		'rank',
		'rk',
		'#',
		'fin',
		'fin pos',
		'platz',
		'rang', // de
		'place',
		'classement',
		'clt', // fr
		'posición',
		'posicion',
		'puesto', // es
		'posizione', // it
		'hely',
		'helyezés', // hu
	],
	player: [
		'driver',
		'name',
		'racer',
		'player',
		'pilot',
		'rider',
		'competitor',
		'participant',
		'user',
		'username',
		'nick',
		'nickname',
		'driver name',
		'player name',
		'fahrer',
		'fahrerin',
		'spieler', // de (Name as in English)
		'pilote',
		'nom',
		'joueur', // fr
		'piloto',
		'nombre',
		'jugador', // es
		'pilota',
		'nome',
		'giocatore', // it
		'versenyző',
		'név',
		'játékos', // hu
	],
	time: [
		'time',
		'total',
		'total time',
		'race time',
		'finish time',
		'time/retired',
		'time/gap',
		'zeit',
		'gesamtzeit',
		'fahrzeit', // de
		'temps',
		'temps total', // fr
		'tiempo',
		'tiempo total', // es
		'tempo',
		'tempo totale', // it
		'idő',
		'összidő', // hu
	],
	gap: [
		'gap',
		'interval',
		'int',
		'diff',
		'behind',
		'delta',
		'gap to leader',
		'abstand',
		'rückstand', // de
		'écart',
		'ecart', // fr
		'diferencia',
		'dif', // es
		'distacco', // it
		'különbség', // hu
	],
	status: ['status', 'state', 'out', 'reason out', 'statut', 'estado', 'stato', 'állapot'], // out: iRacing's reason out
	points: ['points', 'pts', 'pt', 'score', 'punkte', 'pkt', 'punti', 'puntos', 'pont', 'pontszám'],
	laps: ['laps', 'lap count', 'runden', 'tours', 'vueltas', 'giri', 'kör', 'körök'],
	ignored: [
		'car',
		'team',
		'vehicle',
		'kart',
		'class',
		'best',
		'best lap',
		'fastest lap',
		'bestlap',
		'nat',
		'nationality',
		'country',
		'no',
		'number',
		'car number',
		'grid',
		'start',
		'inc',
		'incidents',
		'led',
		'pit',
		'pits',
		'auto',
		'fahrzeug',
		'bestzeit',
		'beste runde',
		'voiture',
		'équipe',
		'meilleur tour',
		'coche',
		'equipo',
		'mejor vuelta',
		'vettura',
		'squadra',
		'giro veloce',
		'miglior giro',
		'autó',
		'csapat',
		'legjobb kör',
	],
};

const ROLE_OF = new Map<string, ColumnRole>();
for (const [role, words] of Object.entries(COLUMN_WORDS) as [ColumnRole, readonly string[]][]) {
	for (const word of words) if (!ROLE_OF.has(word)) ROLE_OF.set(word, role);
}

const columnKey = (name: string): string =>
	name
		.normalize('NFC')
		.trim()
		.toLowerCase()
		.replace(/\s+/gu, ' ')
		.replace(/[.:]+$/u, '');

/** The role of a column name (`Pos.`, `Fahrer`, `Best Lap`), or undefined for a word that is no known column. */
export function columnRole(name: string): ColumnRole | undefined {
	return ROLE_OF.get(columnKey(name));
}

/** Known columns that are not read and hold one lap time (a best lap) or one whole number (a car number, incidents). */
const TIME_COLUMNS = new Set([
	'best',
	'best lap',
	'fastest lap',
	'bestlap',
	'bestzeit',
	'beste runde',
	'meilleur tour',
	'mejor vuelta',
	'giro veloce',
	'miglior giro',
	'legjobb kör',
]);
const NUMBER_COLUMNS = new Set([
	'no',
	'number',
	'car number',
	'grid',
	'start',
	'inc',
	'incidents',
	'led',
	'pit',
	'pits',
]);

/**
 * What one cell of a column holds, for cutting a line whose cells are separated by single spaces: a lap time, a whole
 * number, or text of any number of words (a name, a car, a team, an unknown column).
 */
export function columnKind(name: string): 'time' | 'number' | 'text' {
	const key = columnKey(name);
	if (TIME_COLUMNS.has(key)) return 'time';
	if (NUMBER_COLUMNS.has(key)) return 'number';
	return 'text';
}

/** The longest known column name made of 1 to 3 words, for a header whose words are separated by single spaces. */
export const MAX_COLUMN_WORDS = 3;
