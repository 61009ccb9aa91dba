import { fileURLToPath } from 'node:url';

/**
 * The project's root directory (package.json, data/): the folder above this module's. That holds both from the
 * sources (src/project-root.ts) and from the build, where every module is bundled into a file directly in dist/
 * (scripts/build.ts), so files read at run time are found from here, not from each module's own depth.
 */
export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
