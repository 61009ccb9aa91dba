/**
 * `/race submit` typed in the console as the docs and the README show it (the docs' own example once failed with
 * "unknown option 1", a multi-line quoted scoreboard with "unbalanced quote"): every `/race submit results:` and
 * `/race edit … results:` example of docs/ and README.md is read by the line parser against the real registry, its
 * scoreboard parses, and the examples run through the console end to end (real router, services, memory store).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { parseLine } from '../../src/console/line-parser.js';
import { parseScoreboard } from '../../src/formats/scoreboard.js';
import { consoleActor, consoleWorld } from './console-session.js';

const root = join(import.meta.dirname, '../..');
const data = commands.map((command) => command.data);

/**
 * The examples: code spans and code-block lines holding `/race submit … results:` or `/race edit … results:` (a span
 * that starts at `results:` is typed after `/race submit`), less the templates (`<text>`, `…`), the TAB demos (`⇥`)
 * and the bare `results:` of the prose.
 */
function docExamples(): { where: string; line: string }[] {
	const files = [
		...readdirSync(join(root, 'docs'))
			.filter((name) => name.endsWith('.md'))
			.map((name) => `docs/${name}`),
		'README.md',
	];
	const examples: { where: string; line: string }[] = [];
	for (const file of files) {
		readFileSync(join(root, file), 'utf8')
			.split('\n')
			.forEach((text, i) => {
				const spans = [...text.matchAll(/`([^`]+)`/gu)].map((match) => match[1]!);
				const block = /^(?:pitwall> )?(\/race (?:submit|edit) .*)$/u.exec(text)?.[1];
				for (const found of block === undefined ? spans : [block]) {
					const line = found.startsWith('results:') ? `/race submit ${found}` : found;
					if (!/^\/race (?:submit|edit) .*results:(?!"?$)/u.test(line) || /[<⇥[…]/u.test(line)) continue;
					examples.push({ where: `${file}:${i + 1}`, line });
				}
			});
	}
	return examples;
}

const examples = docExamples();
/** docs/commands.md's example with options after the scoreboard. */
const commandsExample = examples.find(
	({ where, line }) => where.startsWith('docs/commands.md') && line.includes('name:Round 4'),
)!.line;

describe('/race submit as the docs type it', () => {
	it('finds the examples of docs/commands.md, docs/console.md and README.md', () => {
		expect(examples.map(({ where }) => where.split(':')[0])).toEqual(
			expect.arrayContaining(['docs/commands.md', 'docs/console.md', 'README.md']),
		);
		expect(examples.length).toBeGreaterThanOrEqual(6);
	});

	it.each(examples)('$where: $line', ({ line }) => {
		const parsed = parseLine(line, data);
		const results = parsed.options.find((option) => option.name === 'results')?.value;
		expect(typeof results).toBe('string');
		if (parsed.options.some((option) => option.name === 'file')) return; // `results:-` beside a file
		const scoreboard = parseScoreboard(results as string);
		expect(scoreboard.ok && scoreboard.entries.length).toBeGreaterThanOrEqual(2);
	});

	it('reads the options after an unquoted scoreboard: date and name of docs/commands.md', () => {
		const line = commandsExample;
		expect(parseLine(line, data).options.map(({ name, value }) => [name, value])).toEqual([
			['results', '1. Alice 1:23.456; 2. Bob 1:24.010; 3. Carol DNF'],
			['date', '2026-03-01'],
			['name', 'Round 4'],
		]);
	});

	it('runs the examples and a multi-line quoted paste through the console, to a stored race', async () => {
		const { services, type } = consoleWorld(() => new Date('2026-03-10T12:00:00Z'));
		await services.leagues.create(consoleActor, { name: 'Sunday Cup', headline: 'glicko' });
		const typed = [
			commandsExample,
			'confirm',
			'/race submit results:"**Round 5 results**',
			'```',
			'1. Bob 1:23.900',
			'2. Alice 1:24.004',
			'3. Dee 1:25.100',
			'```',
			'GG everyone, see you next week!" date:2026-03-08',
			'confirm',
			examples.find(({ line }) => line.includes('Argammon'))!.line,
			'cancel',
		];
		const { code, out } = await type(typed);
		expect(code).toBe(0);
		expect(out).not.toContain('error:');
		expect(out).toContain('== Race preview: Round 4 ==  Sunday Cup\nOn 2026-03-01');
		expect(out).toContain('DNF Carol (new player)');
		expect(out).toContain('Stored as R1 in Sunday Cup.');
		expect(out).toContain('line 1: "**Round 5 results**" is read as a title, not a racer (a code block follows it)');
		expect(out).toContain(
			'line 7: "GG everyone, see you next week!" is read as a comment, not a racer (it is below the code block)',
		);
		expect(out).toContain('3. Dee (new player) 1:25.100');
		expect(out).toContain('Stored as R2 in Sunday Cup.');
		expect(out).toContain('3. Newbie Kid (new player) 1:05.000');
		expect(out).toContain('Cancelled: nothing was stored.');
	});

	it('presses Accept suggestions by its label, accept-suggestions, then confirm stores the known player', async () => {
		const { services, type } = consoleWorld(() => new Date('2026-03-10T12:00:00Z'));
		await services.leagues.create(consoleActor, { name: 'Sunday Cup', headline: 'glicko' });
		const typed = [
			'/race submit results:"1. Alice; 2. Bob"',
			'confirm',
			'/race submit results:"1. Bob; 2. Alcie"',
			'accept-suggestions',
			'confirm',
		];
		const { code, out } = await type(typed);
		expect(code).toBe(0);
		expect(out).not.toContain('error:');
		expect(out).toContain('racer 2: "Alcie" is not a known player; did you mean "Alice"?');
		expect(out).toContain('[accept-suggestions]');
		expect(out).toContain('Read Alcie as Alice.');
		expect(out).toContain('Stored as R2 in Sunday Cup.');
		expect(out).not.toContain('New players: Alcie');
	});
});
