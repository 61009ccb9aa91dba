/**
 * The charts' font, registered with canvas by file so that text never depends on fontconfig's defaults ("real text in a
 * font the set-up installs"). DejaVu Sans comes from Debian's fonts-dejavu-core (scripts/setup.sh).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { registerFont } from 'canvas';

export const CHART_FONT_FAMILY = 'DejaVu Sans';

const FONT_DIR = '/usr/share/fonts/truetype/dejavu';
const FONT_FILES = [
	{ file: 'DejaVuSans.ttf', weight: 'normal' },
	{ file: 'DejaVuSans-Bold.ttf', weight: 'bold' },
] as const;

let registered = false;

/** Registers DejaVu Sans (regular and bold) once per thread; canvas needs it before the first canvas is made. */
export function registerChartFont(fontDir = FONT_DIR): void {
	if (registered) return;
	for (const { file, weight } of FONT_FILES) {
		const path = join(fontDir, file);
		if (!existsSync(path)) {
			throw new Error(`The chart font ${path} is missing: install Debian's fonts-dejavu-core (npm run setup).`);
		}
		registerFont(path, { family: CHART_FONT_FAMILY, weight });
	}
	registered = true;
}
