/**
 * `npm run build` (after tsc's check), and scripts/build.sh when dist/ is missing or stale: bundles the bot, the CLI
 * and the worker threads into dist/ as ES modules with esbuild.
 *
 * Why esbuild and not tsc's output: tsc writes one .js per source file (about 400 modules for node to resolve, read
 * and link at start-up), and runs no faster than its type check (about a minute here); esbuild bundles in about a
 * second, so `npm start` can rebuild whenever a source changed. tsc still type-checks the shipped code
 * (tsconfig.build.json); esbuild only strips the types. Start-up figures: `npm run bench` (bench/startup.ts).
 *
 * The layout, which the code relies on at run time:
 * - Code splitting: what the bot imports lazily (`await import(…)`: the HTTP server, the chart renderer, PostgreSQL and
 *   Redis stores, …) goes into chunks of its own, loaded when first used. Without splitting, esbuild hoists every
 *   package those modules import to the top of the one bundle, so the bot would load fastify, pg and chart.js at
 *   start-up.
 * - Every file is flat in dist/ (entries and chunks alike), so a module's `import.meta.url` is always dist/<file>.js:
 *   startWorker (src/start-worker.ts) finds `./render-worker.js` beside its caller, and the project's root
 *   (src/project-root.ts: data/) is `..` from there, as it is from src/.
 * - The worker threads are entries named as their source files (render-worker.js, …): startWorker loads them by name.
 * - An entry that another module imports (the CLI, which `node dist/index.js demo` runs) stays its own file: its "am I
 *   the script node was started with" check compares `process.argv[1]` with its own `import.meta.url`, which in a
 *   chunk or in the importer's bundle would be another file's.
 * - Packages stay in node_modules, imported at run time (bundling discord.js and the other pure-JavaScript ones was
 *   measured: bench/startup.ts, BUNDLE_PACKAGES=1).
 * - A rebuild never breaks a bot still running from the previous build (an overlapping restart): files are written
 *   under a temporary name and renamed into place (atomic), chunks carry a content hash in their names, and the
 *   previous build's chunks are kept until the build after.
 */
import { build, type Plugin } from 'esbuild';
import {
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	utimesSync,
	writeFileSync,
} from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
export const DIST = join(root, 'dist');
/** In the output directory, touched with the build's start time: scripts/build.sh rebuilds when a source is newer. */
const STAMP = '.stamp';
/** In the output directory, the files of the last two builds (see the layout above). */
const BUILDS = '.builds.json';

/**
 * Every worker thread's entry, found where it is started: `startWorker(import.meta.url, 'name')` loads `name` beside
 * its caller, so a worker added anywhere in src/ is built without a list to keep up to date.
 */
function workerEntries(dir = join(root, 'src')): [string, string][] {
	const found: [string, string][] = [];
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) found.push(...workerEntries(path));
		else if (entry.name.endsWith('.ts'))
			for (const [, name] of readFileSync(path, 'utf8').matchAll(/startWorker\(import\.meta\.url, '([\w-]+)'\)/g))
				found.push([name!, relative(root, join(dir, `${name}.ts`))]);
	}
	return found;
}

/** Output name (without .js) → source entry. */
export const ENTRIES: Readonly<Record<string, string>> = {
	index: 'src/index.ts',
	cli: 'src/cli/main.ts',
	...Object.fromEntries(workerEntries()),
};

/** Keeps an import of another entry's module as an import of that entry's output file (see the layout above). */
function entriesStayApart(): Plugin {
	const outputOf = new Map(Object.entries(ENTRIES).map(([name, source]) => [join(root, source), `./${name}.js`]));
	return {
		name: 'entries-stay-apart',
		setup(context) {
			context.onResolve({ filter: /^\.\.?\// }, (args) => {
				if (args.kind === 'entry-point') return undefined;
				const target = resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts'));
				const output = outputOf.get(target);
				return output === undefined ? undefined : { path: output, external: true };
			});
		},
	};
}

/** Writes `data` to `path` through a temporary file and a rename, so no reader ever sees a half-written file. */
function writeAtomically(path: string, data: Uint8Array | string): void {
	const temporary = `${path}.${process.pid}.tmp`;
	writeFileSync(temporary, data);
	renameSync(temporary, path);
}

function previousBuild(outdir: string): string[] {
	try {
		return (JSON.parse(readFileSync(join(outdir, BUILDS), 'utf8')) as { files: string[] }[])[0]?.files ?? [];
	} catch {
		return [];
	}
}

/**
 * Builds dist/ (or `outdir`, which must be a folder directly in the project's root: see the layout above); returns
 * the names of the files written. `bundlePackages`: bundle the pure-JavaScript packages too (bench/startup.ts).
 */
export async function buildDist({
	bundlePackages = false,
	outdir = DIST,
}: { bundlePackages?: boolean; outdir?: string } = {}): Promise<string[]> {
	const started = new Date();
	const result = await build({
		absWorkingDir: root,
		entryPoints: Object.entries(ENTRIES).map(([out, source]) => ({ in: source, out })),
		outdir,
		write: false,
		bundle: true,
		splitting: true,
		chunkNames: 'chunk-[hash]',
		format: 'esm',
		platform: 'node',
		target: 'node20',
		// Native packages stay external in either case: their .node binaries are loaded from node_modules.
		...(bundlePackages
			? {
					external: ['canvas', 'sqlite3', 'chartjs-node-canvas', 'pino', 'pino-pretty', 'tsx', 'esbuild'],
					// Bundled CommonJS packages call require(): give the bundle one.
					banner: {
						js: "import { createRequire as __pitwallRequire } from 'node:module';\nconst require = __pitwallRequire(import.meta.url);",
					},
				}
			: { packages: 'external' as const }),
		// Class and function names as in the sources (esbuild renames clashing ones, and error names are shown).
		keepNames: true,
		// Stack traces map back to the TypeScript with `node --enable-source-maps`.
		sourcemap: 'linked',
		logLevel: 'warning',
		plugins: [entriesStayApart()],
	});
	mkdirSync(outdir, { recursive: true });
	const written = result.outputFiles.map((file) => basename(file.path));
	// Chunks first, entries last: an entry renamed into place finds every chunk it imports already there.
	const entryNames = new Set(Object.keys(ENTRIES).flatMap((name) => [`${name}.js`, `${name}.js.map`]));
	const ordered = [...result.outputFiles].sort(
		(a, b) => Number(entryNames.has(basename(a.path))) - Number(entryNames.has(basename(b.path))),
	);
	for (const file of ordered) writeAtomically(file.path, file.contents);
	// Keeps this build's and the previous build's files; removes the rest (older chunks, temporary files).
	const previous = previousBuild(outdir);
	const keep = new Set([...written, ...previous]);
	for (const name of readdirSync(outdir)) {
		if (name.startsWith('.') || keep.has(name)) continue;
		rmSync(join(outdir, name), { force: true });
	}
	writeAtomically(join(outdir, BUILDS), JSON.stringify([{ files: written }, { files: previous }]));
	const stamp = join(outdir, STAMP);
	if (!existsSync(stamp)) writeFileSync(stamp, '');
	utimesSync(stamp, started, started);
	return written;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(import.meta.filename)) {
	const files = await buildDist({ bundlePackages: process.env['BUNDLE_PACKAGES'] === '1' });
	process.stderr.write(`build: dist/ (${files.filter((name) => name.endsWith('.js')).length} files)\n`);
}
