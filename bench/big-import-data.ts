/**
 * A generated history CSV for the big `/league import` (10,000 races of 20 racers: 200,000 lines, about 7.7 MB, as
 * measured from outside): one race a day from 1990-01-01, racers drawn from 2,000 players, seeded so every run reads
 * the same file. Used by bench/league-import.ts and the tests of imports stored in parts.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { addDays } from '../src/league/dates.js';
import { mulberry32 } from '../test/support/mulberry32.js';

export interface BigImportSpec {
	readonly races: number;
	readonly racers: number;
	readonly players: number;
	readonly seed: number;
}

export const BIG_IMPORT: BigImportSpec = { races: 10_000, racers: 20, players: 2_000, seed: 23 };

export function bigImportCsv(spec: BigImportSpec = BIG_IMPORT): string {
	const random = mulberry32(spec.seed);
	const lines = ['race,date,player,position,time,status'];
	for (let r = 0; r < spec.races; r++) {
		const field = new Set<number>();
		while (field.size < spec.racers) field.add(Math.floor(random() * spec.players));
		const date = addDays('1990-01-01', r);
		let i = 0;
		for (const p of field) {
			const dnf = random() < 0.05;
			const time = dnf ? '' : (60 + i + random()).toFixed(3);
			lines.push(`${r + 1},${date},Driver ${String(p).padStart(4, '0')},${i + 1},${time},${dnf ? 'DNF' : ''}`);
			i++;
		}
	}
	return `${lines.join('\n')}\n`;
}

// `tsx bench/big-import-data.ts <file>` writes the file (bench/league-import.ts reads it in a process of its own).
if (process.argv[1] === fileURLToPath(import.meta.url)) writeFileSync(process.argv[2]!, bigImportCsv());
