/**
 * An embed drawn as Discord lays it out (colour bar, author, title, description, fields in rows of three, image,
 * footer), for the README and for looking at a reply without a Discord client (`npm run docs:images`). Only `**bold**`
 * of Discord's markdown is drawn; other markers and escapes (`\*`) are removed. Not used by the bot: Discord draws its own embeds.
 */
import { Canvas, Image, type CanvasRenderingContext2D } from 'canvas';
import type { EmbedData } from '../formats/embed.js';
import { CHART_FONT_FAMILY, registerChartFont } from './chart-font.js';

const WIDTH = 560;
const PAD = 16;
const BAR = 4;
const LINE = 20;
const INNER = WIDTH - BAR - 2 * PAD;

const THEMES = {
	dark: { page: '#313338', card: '#2b2d31', text: '#dbdee1', strong: '#f2f3f5', muted: '#b5bac1' },
	light: { page: '#ffffff', card: '#f2f3f5', text: '#313338', strong: '#060607', muted: '#5c5e66' },
} as const;

type Theme = (typeof THEMES)[keyof typeof THEMES];

/** Markdown left after bold is split off: code ticks and italic stars dropped, escapes undone, zero-width removed. */
const plain = (text: string) =>
	text
		.replace(/(?<!\\)[`*]/g, '')
		.replace(/\\([*_~`|>#\-\\[\]()])/g, '$1')
		.replace(/\u200b/g, '');

/** A line as runs of plain and bold text (`**…**`), Discord's escapes undone. */
function runs(line: string): { text: string; bold: boolean }[] {
	return line
		.split('**')
		.map((text, i) => ({
			text: plain(text),
			bold: i % 2 === 1,
		}))
		.filter((run) => run.text !== '');
}

const font = (size: number, bold: boolean) => `${bold ? 'bold ' : ''}${size}px "${CHART_FONT_FAMILY}"`;

/** Words of `text` wrapped to `width`, keeping bold runs bold; returns the wrapped lines as runs. */
function wrap(ctx: CanvasRenderingContext2D, text: string, size: number, width: number) {
	const out: { text: string; bold: boolean }[][] = [];
	for (const line of text.split('\n')) {
		let current: { text: string; bold: boolean }[] = [];
		let used = 0;
		for (const run of runs(line)) {
			for (const word of run.text.split(/(?<= )/)) {
				ctx.font = font(size, run.bold);
				const w = ctx.measureText(word).width;
				if (used + w > width && used > 0) {
					out.push(current);
					current = [];
					used = 0;
				}
				current.push({ text: word, bold: run.bold });
				used += w;
			}
		}
		out.push(current);
	}
	return out;
}

/** Draws wrapped text at (x, y) and returns the y below it. */
function text(
	ctx: CanvasRenderingContext2D,
	value: string,
	at: { x: number; y: number; width: number; size: number; colour: string; bold?: boolean },
): number {
	let y = at.y;
	for (const line of wrap(ctx, value, at.size, at.width)) {
		let x = at.x;
		for (const run of line) {
			ctx.font = font(at.size, at.bold === true || run.bold);
			ctx.fillStyle = at.colour;
			ctx.fillText(run.text, x, y);
			x += ctx.measureText(run.text).width;
		}
		y += at.size + 6;
	}
	return y;
}

async function imageOf(png: Buffer): Promise<Image> {
	const image = new Image();
	await new Promise<void>((resolve, reject) => {
		image.onload = () => resolve();
		image.onerror = reject;
		image.src = png;
	});
	return image;
}

/** Lays the card out on `ctx` (or only measures it when `ctx` draws nowhere) and returns its height. */
function layout(ctx: CanvasRenderingContext2D, embed: EmbedData, theme: Theme, image: Image | undefined): number {
	const x = BAR + PAD;
	let y = PAD + 12;
	if (embed.author)
		y = text(ctx, embed.author.name, { x, y, width: INNER, size: 13, colour: theme.strong, bold: true }) + 2;
	y = text(ctx, embed.title, { x, y: y + 2, width: INNER, size: 16, colour: theme.strong, bold: true }) + 2;
	if (embed.description) y = text(ctx, embed.description, { x, y, width: INNER, size: 13, colour: theme.text }) + 4;
	const fields = embed.fields ?? [];
	for (let i = 0; i < fields.length;) {
		// Up to three inline fields share a row; any other field has a row of its own.
		const row = fields[i]!.inline
			? fields.slice(i, i + 3).filter((_, j, all) => all.slice(0, j + 1).every((g) => g.inline))
			: [fields[i]!];
		const width = (INNER - 8 * (row.length - 1)) / row.length;
		let bottom = y;
		row.forEach((field, j) => {
			const fx = x + j * (width + 8);
			const below = text(ctx, field.name, { x: fx, y: y + 6, width, size: 13, colour: theme.strong, bold: true });
			bottom = Math.max(bottom, text(ctx, field.value, { x: fx, y: below, width, size: 13, colour: theme.text }));
		});
		y = bottom + 2;
		i += row.length;
	}
	if (image !== undefined) {
		const height = (image.height * INNER) / image.width;
		ctx.drawImage(image, x, y, INNER, height);
		y += height + LINE - 4;
	}
	if (embed.footer) y = text(ctx, embed.footer.text, { x, y: y + 4, width: INNER, size: 11, colour: theme.muted });
	return y + PAD - 10;
}

/** The embed as a PNG, with `attachment` as its image when it names one. */
export async function drawEmbedCard(
	embed: EmbedData,
	options: { readonly theme: 'dark' | 'light'; readonly attachment?: Buffer | undefined },
): Promise<Buffer> {
	registerChartFont();
	const theme = THEMES[options.theme];
	const image = options.attachment && embed.image ? await imageOf(options.attachment) : undefined;
	const height = layout(new Canvas(WIDTH, 10).getContext('2d'), embed, theme, image);
	const canvas = new Canvas(WIDTH + 2 * PAD, Math.ceil(height) + 2 * PAD);
	const ctx = canvas.getContext('2d');
	ctx.fillStyle = theme.page;
	ctx.fillRect(0, 0, canvas.width, canvas.height);
	ctx.translate(PAD, PAD);
	ctx.fillStyle = theme.card;
	ctx.fillRect(0, 0, WIDTH, height);
	ctx.fillStyle = `#${embed.color.toString(16).padStart(6, '0')}`;
	ctx.fillRect(0, 0, BAR, height);
	layout(ctx, embed, theme, image);
	return canvas.toBuffer('image/png');
}
