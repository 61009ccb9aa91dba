/** A chart is an extra: a renderer that fails leaves the reply without it, logged, never a failed reply. */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { chartFiles } from '../../commands/shared.js';
import type { ChartRenderer } from '../../src/charts/chart-types.js';
import type { CommandContext } from '../../src/discord/command.js';

function context(charts: Partial<ChartRenderer>, lines: string[]): CommandContext {
	const log = pino({ level: 'error' }, { write: (line: string) => lines.push(line) });
	return { log, charts: charts as ChartRenderer };
}

describe('chartFiles', () => {
	it('attaches the rendered chart', async () => {
		const png = Buffer.from('png');
		const ctx = context({ leaderboard: () => Promise.resolve(png) }, []);
		expect(await chartFiles(ctx, 'board.png', {}, (c) => c.leaderboard({} as never))).toEqual([
			{ attachment: png, name: 'board.png' },
		]);
	});

	it("draws in the league's chart theme, dark unless the league chose light", async () => {
		const themes: (string | undefined)[] = [];
		const ctx = context({ leaderboard: (_chart, theme) => (themes.push(theme), Promise.resolve(Buffer.from(''))) }, []);
		await chartFiles(ctx, 'board.png', {}, (c, theme) => c.leaderboard({} as never, theme));
		await chartFiles(ctx, 'board.png', { chartTheme: 'light' }, (c, theme) => c.leaderboard({} as never, theme));
		expect(themes).toEqual(['dark', 'light']);
	});

	it('answers without the chart when the renderer throws, and logs the chart by name only', async () => {
		const lines: string[] = [];
		const ctx = context(
			{ leaderboard: () => Promise.reject(new Error('A leaderboard chart shows 1 to 20 players, not 0.')) },
			lines,
		);
		expect(await chartFiles(ctx, 'board.png', {}, (c) => c.leaderboard({} as never))).toEqual([]);
		expect(lines).toHaveLength(1);
		expect(JSON.parse(lines[0]!)).toMatchObject({ msg: 'chart not drawn', chart: 'board.png' });
	});
});
