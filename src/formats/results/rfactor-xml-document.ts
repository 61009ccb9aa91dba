import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { ResultFileError } from './types.js';

/**
 * The XML layer of the rFactor-family reader (rfactor-xml.ts): fast-xml-parser with every value kept as a string, on
 * a copy of the file without its bulk. A 2.4 MB race file is 2.1 MB of `<Stream>` (one line per score, sector,
 * incident, chat) and 0.25 MB of `<Lap>` elements; the classification needs neither, so they are cut out before
 * the text is validated and parsed (the parser then sees 40 KB and a thousand tags instead of fifty thousand), the
 * streams kept aside as text for their penalty lines and the laps as a count. Measured on that file (2 shared,
 * busy cores): a read takes about 8 ms once warm and 55 ms the first time; parsing the whole text takes 130 ms.
 */

export type XmlNode = { readonly [key: string]: unknown };

/** The element that stands for a driver's run of `<Lap>` elements, holding their number. */
export const LAP_COUNT = 'LapElementCount';
const LAP_RUN = /<Lap\b[^>]*>[^<]*<\/Lap>(?:\s*<Lap\b[^>]*>[^<]*<\/Lap>)*/g;

export interface Streams {
	/** The session's `<Stream>` as raw XML text ('' when it has none). */
	of(session: XmlNode): string;
}

const parser = new XMLParser({
	ignoreAttributes: true,
	parseTagValue: false,
	parseAttributeValue: false,
	processEntities: true,
	htmlEntities: false,
	// Without path strings the parser runs several times faster (no jPath is built for each of thousands of tags).
	jPath: false,
	isArray: (name) => name === 'Driver' || name === LAP_COUNT,
});

/**
 * Parse an rFactor results file into its `<RaceResults>` element; throws ResultFileError for a file cut short, not
 * well-formed, or without `<RaceResults>`. `streams.of(session)` gives a session's `<Stream>` as raw XML text.
 */
export function parseRfactorXml(text: string): { root: XmlNode; streams: Streams } {
	// A file cut short still parses (the parser does not validate), so it would read as a race with drivers missing.
	const end = text.lastIndexOf('</rFactorXML>');
	if (end < 0) {
		throw new ResultFileError('the file is cut short: it does not end with </rFactorXML> (upload the whole file)');
	}
	const { xml, streams } = cutStreams(text.slice(0, end + '</rFactorXML>'.length));
	// The parser is lenient (a mistyped closing tag passes), so garbage would read as a strange race: validate first.
	const valid = XMLValidator.validate(xml);
	if (valid !== true) {
		throw new ResultFileError(`the file is not well-formed XML: line ${valid.err.line}: ${valid.err.msg}`);
	}
	let doc: unknown;
	try {
		doc = parser.parse(xml);
	} catch (error) {
		throw new ResultFileError(
			`the file is not readable XML: ${error instanceof Error ? error.message : String(error)}`,
		);
	}
	const root = node(node(doc)?.rFactorXML)?.RaceResults;
	if (!node(root)) throw new ResultFileError('the file has no <RaceResults> inside <rFactorXML>');
	return {
		root: root as XmlNode,
		streams: {
			of: (session) => {
				const at = /^#(\d+)$/.exec(text1(session, 'Stream') ?? '');
				return at ? (streams[Number(at[1])] ?? '') : '';
			},
		},
	};
}

/**
 * Each `<Stream>…</Stream>` is replaced by `<Stream>#N</Stream>`, N its index in `streams`, its raw XML text kept
 * there: the parser skips megabytes of `<Score>` and `<Sector>` lines no reader needs. Each run of
 * `<Lap …>time</Lap>` elements becomes `<LapElementCount>N</LapElementCount>` (N laps; read where `<Laps>` is
 * missing). Line breaks stay so that the validator's line numbers are the file's. A bare `&` (some files have one in
 * a vehicle file name; simresults fixes it the same way) becomes `&amp;`.
 */
function cutStreams(text: string): { xml: string; streams: string[] } {
	const parts: string[] = [];
	const streams: string[] = [];
	let from = 0;
	for (;;) {
		const open = text.indexOf('<Stream>', from);
		const close = open < 0 ? -1 : text.indexOf('</Stream>', open);
		if (close < 0) break;
		const stream = text.slice(open + '<Stream>'.length, close);
		parts.push(text.slice(from, open), `<Stream>#${streams.length}</Stream>`, '\n'.repeat(lineBreaks(stream)));
		streams.push(stream);
		from = close + '</Stream>'.length;
	}
	parts.push(text.slice(from));
	const xml = parts
		.join('')
		.replace(/&(?![a-zA-Z][\w.-]*;|#\d+;|#x[\da-fA-F]+;)/g, '&amp;')
		// The laps are nine tenths of what is left, and most of the tags: only their count is kept.
		.replace(
			LAP_RUN,
			(laps) => `<${LAP_COUNT}>${laps.split('</Lap>').length - 1}</${LAP_COUNT}>${'\n'.repeat(lineBreaks(laps))}`,
		);
	return { xml, streams };
}

function lineBreaks(text: string): number {
	let n = 0;
	for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) n++;
	return n;
}

export function node(value: unknown): XmlNode | undefined {
	return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as XmlNode) : undefined;
}

/** The text of a child element (the first one when repeated); undefined when absent or not text. */
export function text1(parent: XmlNode, key: string): string | undefined {
	const value: unknown = parent[key];
	const first: unknown = Array.isArray(value) ? value[0] : value;
	return typeof first === 'string' ? first : undefined;
}
