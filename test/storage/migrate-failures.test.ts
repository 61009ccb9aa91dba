import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/cli/migrate.js';

/**
 * `npm run migrate` on a damaged SQLite store: the store's one-line message and exit code 3, as `npm start` and
 * `npm run backup` answer it (before: a bare failure, exit 1, as for a bug).
 */

const dir = mkdtempSync(join(tmpdir(), 'pitwall-migrate-failures-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run migrate from a damaged store', () => {
	it('says what is wrong in one line and exits 3; nothing is created', async () => {
		const from = join(dir, 'damaged.sqlite');
		writeFileSync(from, Buffer.alloc(8192, 0xa5)); // not a database
		const err: string[] = [];
		const code = await migrate(['--from', `sqlite://${from}`, '--to', `sqlite://${join(dir, 'to.sqlite')}`], {
			out: () => {},
			err: (text) => void err.push(text),
		});
		expect(code).toBe(3);
		expect(existsSync(join(dir, 'to.sqlite'))).toBe(false);
		expect(err.join('')).toMatch(
			/^migrate: the database .*damaged\.sqlite is damaged \(SQLITE_NOTADB\): pitwall will not open it; restore it from a backup \(see "Backup and restore"[^\n]*\n$/,
		);
	});
});
