/** Runs the `pitwall` CLI in-process, as the CLI tests call it: the exit code and everything it printed. */
import { main } from '../../src/cli/main.js';

export async function runCli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
	let out = '';
	let err = '';
	const code = await main(argv, { out: (text) => void (out += text), err: (text) => void (err += text) });
	return { code, out, err };
}
