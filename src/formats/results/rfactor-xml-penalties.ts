/**
 * The `<Penalty>` lines of an rFactor-family results file (rfactor-xml.ts), read into short words per driver.
 *
 * The sims write penalties only as free text in the session's `<Stream>`, one line per event, in time order:
 * - `NAME received Stop/Go penalty, 10s, 0laps[ for "Cut Track"]. Result: …` (issued; LMU adds the attributes
 *   Driver, Penalty, Time and Reason to this line);
 * - `NAME served 1st Stop/Go penalty, result: …` (served in the pit lane: applied);
 * - `NAME finished before serving penalty, added 35 seconds to totalET` (turned into time, already inside the
 *   driver's FinishTime: checked on simresults' race_with_penalties.xml);
 * - `NAME finished before serving penalty, subtracted 1 lap and adjusted totalET …` (turned into a lap).
 * Each issued penalty becomes one word, in the words of the ACC reader (acc-penalties.ts): "stop-and-go 10 s: Cut
 * Track" when served, "+35 s (stop-and-go 10 s not served)" when turned into time, "drive-through (not served)" when
 * the file never says it was served or converted (the car retired, or the file ends first). Lines of another shape
 * are returned for a warning rather than guessed at.
 */

export interface StreamPenalties {
	/** Words per driver, keyed by the driver's cleaned name as the line writes it. */
	readonly byName: ReadonlyMap<string, readonly string[]>;
	/** `<Penalty>` texts not understood (cleaned), for a warning. */
	readonly notUnderstood: readonly string[];
}

interface Issued {
	readonly kind: string;
	readonly seconds: number;
	readonly reason: string | undefined;
}

const RECEIVED = /^(.+?) received (.+?) penalty, (\d+)s, \d+laps?(?: for (.+?))?\. Result:/;
const SERVED = /^(.+?) served (?:\d+(?:st|nd|rd|th) )?(.+?) penalty\b/;
const ADDED = /^(.+?) finished before serving penalty, added (\d+(?:\.\d+)?) seconds?\b/;
const SUBTRACTED = /^(.+?) finished before serving penalty, subtracted (\d+) laps?\b/;
const PENALTY_ELEMENT = /<Penalty\b([^>]*)>([^<]*)<\/Penalty>/g;
const ATTRIBUTE = /([\w:-]+)\s*=\s*"([^"]*)"/g;

export function cleanName(raw: string): string {
	return raw.replace(/\s+/g, ' ').trim();
}

/** Read the `<Penalty>` lines of a `<Stream>` kept as raw XML text (the parser leaves the stream unparsed). */
export function readStreamPenalties(stream: string): StreamPenalties {
	const pending = new Map<string, Issued[]>();
	const words = new Map<string, string[]>();
	const notUnderstood: string[] = [];
	const wordsOf = (name: string): string[] => {
		let list = words.get(name);
		if (!list) words.set(name, (list = []));
		return list;
	};
	const pendingOf = (name: string): Issued[] => {
		let list = pending.get(name);
		if (!list) pending.set(name, (list = []));
		return list;
	};

	for (const match of stream.matchAll(PENALTY_ELEMENT)) {
		const attributes = readAttributes(match[1]!);
		const text = cleanName(decodeEntities(match[2]!));
		const received = RECEIVED.exec(text);
		if (received) {
			const name = cleanName(attributes.get('Driver') ?? received[1]!);
			const reason = attributes.get('Reason') ?? received[4];
			pendingOf(name).push({
				kind: received[2]!,
				seconds: Number(received[3]),
				reason: reason ? cleanName(reason.replace(/^"(.*)"$/, '$1')) || undefined : undefined,
			});
			continue;
		}
		const served = SERVED.exec(text);
		if (served) {
			const name = cleanName(served[1]!);
			const queue = pendingOf(name);
			// The line names the kind served; take the oldest issued penalty of that kind (else the oldest one).
			const at = queue.findIndex((p) => p.kind.toLowerCase() === served[2]!.toLowerCase());
			const [issued] = queue.splice(at >= 0 ? at : 0, 1);
			wordsOf(name).push(word(issued ?? { kind: served[2]!, seconds: 0, reason: undefined }, true));
			continue;
		}
		const added = ADDED.exec(text);
		const subtracted = added ? undefined : SUBTRACTED.exec(text);
		if (added || subtracted) {
			const name = cleanName((added ?? subtracted)![1]!);
			const queue = pendingOf(name).splice(0);
			const laps = Number(subtracted?.[2]);
			const what = added ? `+${added[2]} s` : `-${laps} lap${laps === 1 ? '' : 's'}`;
			wordsOf(name).push(`${what} (${unserved(queue)} not served)${reasons(queue)}`);
			continue;
		}
		notUnderstood.push(text);
	}
	for (const [name, queue] of pending) for (const issued of queue) wordsOf(name).push(word(issued, false));
	return { byName: words, notUnderstood };
}

function word(issued: Issued, served: boolean): string {
	return `${what(issued)}${served ? '' : ' (not served)'}${issued.reason ? `: ${issued.reason}` : ''}`;
}

/** "stop-and-go 10 s", "drive-through", "+10 s" (a time penalty). */
function what(issued: Issued): string {
	const kind = issued.kind.toLowerCase();
	if (kind === 'drive thru') return 'drive-through';
	if (kind === 'time') return `+${issued.seconds} s`;
	const name = kind === 'stop/go' ? 'stop-and-go' : kind;
	return issued.seconds > 0 ? `${name} ${issued.seconds} s` : name;
}

function unserved(queue: readonly Issued[]): string {
	return queue.length > 0 ? queue.map(what).join(' and ') : 'penalty';
}

function reasons(queue: readonly Issued[]): string {
	const list = queue.flatMap((p) => (p.reason ? [p.reason] : []));
	return list.length > 0 ? `: ${list.join('; ')}` : '';
}

function readAttributes(source: string): Map<string, string> {
	const map = new Map<string, string>();
	for (const match of source.matchAll(ATTRIBUTE)) map.set(match[1]!, decodeEntities(match[2]!));
	return map;
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = { quot: '"', apos: "'", amp: '&', lt: '<', gt: '>' };

/** The stream is kept as raw XML, so its text still carries `&quot;` and the like. */
export function decodeEntities(text: string): string {
	if (!text.includes('&')) return text;
	return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, body: string) => {
		if (body[0] === '#') {
			const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
			return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
		}
		return NAMED_ENTITIES[body] ?? whole;
	});
}
