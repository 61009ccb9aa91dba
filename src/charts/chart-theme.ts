/**
 * The two chart themes: an opaque background, text and grid colours readable on it, and a colour-blind-safe
 * palette. The palette is Okabe & Ito's (https://jfly.uni-koeln.de/color/), ordered per theme so the first colours
 * contrast with the background: the light blues and oranges on Discord's dark grey, the deep ones on white.
 */
import type { ChartTheme } from './chart-types.js';

export interface ChartColors {
	/** Opaque: Discord shows transparent PNGs on its own background, which differs per client theme. */
	readonly background: string;
	readonly text: string;
	/** Secondary text: axis ticks, notes. */
	readonly mutedText: string;
	readonly grid: string;
	/** Series colours, in order (history players, odds groups, leaderboard bars). */
	readonly palette: readonly string[];
}

/** Discord's dark message background is #313338; its light one is white. */
export const chartColors: Readonly<Record<ChartTheme, ChartColors>> = {
	dark: {
		background: '#313338',
		text: '#f2f3f5',
		mutedText: '#c4c9ce',
		grid: 'rgba(255, 255, 255, 0.13)',
		// sky blue, orange, bluish green, reddish purple, yellow
		palette: ['#56b4e9', '#e69f00', '#009e73', '#cc79a7', '#f0e442'],
	},
	light: {
		background: '#ffffff',
		text: '#1e1f22',
		mutedText: '#4e5058',
		grid: 'rgba(0, 0, 0, 0.1)',
		// blue, vermillion, bluish green, reddish purple, orange
		palette: ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00'],
	},
};

/** `#rrggbb` with an alpha, as `rgba()`. */
export function withAlpha(hex: string, alpha: number): string {
	const value = Number.parseInt(hex.slice(1), 16);
	return `rgba(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255}, ${alpha})`;
}

/** Black or white, whichever reads better on `hex` (WCAG relative luminance). */
export function textColorOn(hex: string): string {
	const value = Number.parseInt(hex.slice(1), 16);
	const channel = (c: number) => {
		const s = c / 255;
		return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
	};
	const luminance =
		0.2126 * channel((value >> 16) & 255) + 0.7152 * channel((value >> 8) & 255) + 0.0722 * channel(value & 255);
	// Contrast with black (L + 0.05) / 0.05 against white 1.05 / (L + 0.05): equal at L ≈ 0.179.
	return luminance > 0.179 ? '#000000' : '#ffffff';
}
