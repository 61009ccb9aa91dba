/**
 * Embeds as plain data, fitted to Discord's limits: the replies of /rating, /leaderboard,
 * /odds, /race show, the previews and the monthly post. Pure, so the monthly post (a service) and the commands build
 * them alike; the commands hand them to discord.js's EmbedBuilder, whose setters check the limits again.
 *
 * Limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits): title 256, description
 * 4,096, 25 fields of name 256 and value 1,024, footer 2,048, author 256, and 6,000 characters in all the embeds of
 * one message. A list that does not fit loses whole lines from its end, counted ("…and 12 more").
 */
import { clip, clipLines } from './clip-text.js';

export const EMBED_LIMITS = {
	title: 256,
	description: 4096,
	fields: 25,
	fieldName: 256,
	fieldValue: 1024,
	footer: 2048,
	author: 256,
	total: 6000,
} as const;

/** Colours by meaning, one place for all replies. */
export const EMBED_COLOURS = {
	gold: 0xf1c40f,
	silver: 0xbdc3c7,
	bronze: 0xcd7f32,
	established: 0x3498db,
	provisional: 0x95a5a6,
	neutral: 0x5865f2,
	warning: 0xe67e22,
	voided: 0xe74c3c,
	stored: 0x2ecc71,
} as const;

/** The colour of a player's standing: medal colours for the top three, grey while provisional, blue otherwise. */
export function standingColour(rank: number | undefined, provisional: boolean): number {
	if (provisional || rank === undefined) return EMBED_COLOURS.provisional;
	return [EMBED_COLOURS.gold, EMBED_COLOURS.silver, EMBED_COLOURS.bronze][rank - 1] ?? EMBED_COLOURS.established;
}

/** Lines of a list: `head` and `tail` kept whole, `lines` shortened from the end when they do not fit. */
export interface LineList {
	readonly head?: readonly string[];
	readonly lines: readonly string[];
	readonly tail?: readonly string[];
}

export interface EmbedField {
	readonly name: string;
	readonly value: string | LineList;
	readonly inline?: boolean;
}

/** What a reply asks for; `fitEmbed` makes it what Discord accepts. */
export interface EmbedSpec {
	readonly title: string;
	readonly description?: string | LineList | undefined;
	readonly colour: number;
	readonly fields?: readonly (EmbedField | undefined | false)[];
	/** The name of an attached file shown as the embed's image (`attachment://<name>`). */
	readonly image?: string | undefined;
	readonly footer?: string | undefined;
	readonly author?: string | undefined;
	/** The address the title links to (the league's or the player's web page, when public). */
	readonly url?: string | undefined;
}

/** Discord's embed object, the part we use. */
export interface EmbedData {
	title: string;
	description?: string;
	color: number;
	fields?: { name: string; value: string; inline?: boolean }[];
	image?: { url: string };
	footer?: { text: string };
	author?: { name: string };
	url?: string;
}

const text = (value: string | LineList, max: number): string =>
	typeof value === 'string' ? clip(value, max) : clipLines(value.head ?? [], value.lines, value.tail ?? [], max);

/** Discord refuses empty field values and descriptions; a dash says "nothing here". */
const nonEmpty = (value: string) => (value.trim() === '' ? '—' : value);

/** The embed within Discord's limits: each part clipped to its own limit, then the description to the total. */
export function fitEmbed(spec: EmbedSpec): EmbedData {
	const fields = (spec.fields ?? [])
		.filter((f): f is EmbedField => f !== undefined && f !== false)
		.slice(0, EMBED_LIMITS.fields)
		.map((f) => ({
			name: nonEmpty(clip(f.name, EMBED_LIMITS.fieldName)),
			value: nonEmpty(text(f.value, EMBED_LIMITS.fieldValue)),
			...(f.inline === true && { inline: true }),
		}));
	const embed: EmbedData = { title: nonEmpty(clip(spec.title, EMBED_LIMITS.title)), color: spec.colour };
	if (spec.author !== undefined) embed.author = { name: clip(spec.author, EMBED_LIMITS.author) };
	if (spec.footer !== undefined) embed.footer = { text: clip(spec.footer, EMBED_LIMITS.footer) };
	if (spec.image !== undefined) embed.image = { url: `attachment://${spec.image}` };
	if (spec.url !== undefined) embed.url = spec.url;
	if (fields.length > 0) embed.fields = fields;
	const used = embedLength(embed);
	if (spec.description !== undefined) {
		// The description gives way first: the fields and footer carry the summary, the description the long list.
		const room = Math.min(EMBED_LIMITS.description, EMBED_LIMITS.total - used);
		const description = text(spec.description, Math.max(room, 0));
		if (description !== '') embed.description = description;
	}
	while (embedLength(embed) > EMBED_LIMITS.total && embed.fields !== undefined && embed.fields.length > 0) {
		embed.fields.pop(); // only when title, footer and fields alone pass 6,000: drop fields from the end
	}
	return embed;
}

/** The characters Discord counts towards the 6,000 of a message. */
export function embedLength(embed: EmbedData): number {
	return (
		embed.title.length +
		(embed.description?.length ?? 0) +
		(embed.footer?.text.length ?? 0) +
		(embed.author?.name.length ?? 0) +
		(embed.fields ?? []).reduce((sum, f) => sum + f.name.length + f.value.length, 0)
	);
}
