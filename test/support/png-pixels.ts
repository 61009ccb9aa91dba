/** Reads a PNG's pixels for the chart tests: decoded by canvas, then getImageData. */
import { createCanvas, loadImage } from 'canvas';

export type Rgb = readonly [number, number, number];

export interface Pixels {
	readonly width: number;
	readonly height: number;
	/** The opaque colour of the pixel that covers the point (x, y) (pixel column c spans c ≤ x < c + 1). */
	at(x: number, y: number): Rgb;
}

export async function decodePng(png: Buffer): Promise<Pixels> {
	const image = await loadImage(png);
	const canvas = createCanvas(image.width, image.height);
	const ctx = canvas.getContext('2d');
	ctx.drawImage(image, 0, 0);
	const { data } = ctx.getImageData(0, 0, image.width, image.height);
	return {
		width: image.width,
		height: image.height,
		at(x, y) {
			const i = (Math.floor(y) * image.width + Math.floor(x)) * 4;
			return [data[i]!, data[i + 1]!, data[i + 2]!];
		},
	};
}

export function hexRgb(hex: string): Rgb {
	const value = Number.parseInt(hex.slice(1), 16);
	return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

/** `color` at `alpha` over `background`, as the canvas composites it. */
export function blend(color: string, background: string, alpha: number): Rgb {
	const c = hexRgb(color);
	const b = hexRgb(background);
	return [0, 1, 2].map((i) => Math.round(c[i]! * alpha + b[i]! * (1 - alpha))) as unknown as Rgb;
}

/** Largest channel difference. */
export function colorDistance(a: Rgb, b: Rgb): number {
	return Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]), Math.abs(a[2] - b[2]));
}

export function isColor(pixel: Rgb, expected: Rgb, tolerance = 6): boolean {
	return colorDistance(pixel, expected) <= tolerance;
}

/** How many distinct colours the image has (a blank or one-colour PNG has one). */
export function distinctColors(pixels: Pixels): number {
	const seen = new Set<number>();
	for (let y = 0; y < pixels.height; y += 2) {
		for (let x = 0; x < pixels.width; x += 2) {
			const [r, g, b] = pixels.at(x, y);
			seen.add((r << 16) | (g << 8) | b);
		}
	}
	return seen.size;
}

/** A linear scale's pixel for `value`, from the recorded geometry: min..max onto left..right or bottom..top. */
export function pixelOf(
	scale: { axis: string; min: number; max: number; left: number; right: number; top: number; bottom: number },
	value: number,
): number {
	const share = (value - scale.min) / (scale.max - scale.min);
	return scale.axis === 'x'
		? scale.left + share * (scale.right - scale.left)
		: scale.bottom - share * (scale.bottom - scale.top);
}
