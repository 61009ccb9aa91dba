import { LAP_COUNT, node, parseRfactorXml, text1, type XmlNode } from './rfactor-xml-document.js';
import { cleanName, readStreamPenalties } from './rfactor-xml-penalties.js';
import { ResultFileError, type ResultEntry, type ResultFile, type ResultReader } from './types.js';
import type { EntryStatus } from '../../ratings/types.js';

/**
 * The XML results of the rFactor family: rFactor 2, Le Mans Ultimate, Automobilista 1, rFactor 1, Game Stock Car
 * Extreme (`<rFactorXML><RaceResults>`; docs: ../shared/RESULTS-FORMATS.md).
 *
 * Facts of the format and the rule applied to each:
 * - The header names the sim only indirectly: `<Mod>` `reizaN.rfm` is Game Stock Car, `*.srs` Automobilista,
 *   `<GameVersion>1.255` rFactor 1, another mod rFactor 2; Le Mans Ultimate writes no `<Mod>` and its install path
 *   in `<TrackData>`. Where nothing tells, the name says "rFactor 2 / Le Mans Ultimate".
 * - Sessions are elements `<Race>`, `<Race2>`, `<Qualify>`, `<Practice1>`, `<Warmup>`, `<TestDay>`…: the last race
 *   session is read and named in `session`; a file without one is refused, listing the sessions it holds.
 * - `<Driver>` elements come in slot order: sorted by `<Position>`. `<FinishStatus>`: "Finished Normally" took the
 *   flag, "DNF" (with `<DNFReason>`), "DQ"; "None" (no status: the car left, or was parked at the end) is read as
 *   DNF with laps and DNS without, marked `statusInferred` and warned about.
 * - rFactor ranks a retired car by its laps, ahead of finishers with fewer; this project lists every finisher first
 *   (types.ts), so such cars move below the finishers, with a warning; disqualified cars come last. Class positions
 *   are the file's, or counted within the class when the order changed.
 * - Corrupted positions (simresults' rule): when a finisher has a lower `<FinishTime>` than the finisher ahead of
 *   it on the same lap count, the finishers are re-sorted by laps then time, with a warning.
 * - `<FinishTime>` is the race time in seconds, with penalties the sim turned into time already inside;
 *   `<Penalty>` lines of the stream become `penalties` words (rfactor-xml-penalties.ts); DQ adds "disqualified".
 * - `<SteamId>` / `<SteamID>` where a file has one; the same driver in several slots (a reconnect) is one entry; a
 *   `<Driver>` without a name is an empty slot. Cars whose `<ControlAndAids>` say AIControl stay, with a warning.
 * - The files declare UTF-8 but may hold Latin-1 names: decodeResultBytes reads those lines as Windows-1252.
 * - Speed: a race file reaches 2 MB, nearly all of it the `<Stream>` of scores, sectors and incidents, most of the
 *   rest `<Lap>` elements. Streams are cut out and laps replaced by their count before the XML is validated and
 *   parsed (which then see 2 % of the text), and only the race's stream is scanned, for its penalty lines
 *   (rfactor-xml-document.ts).
 */

interface Slot {
	readonly name: string;
	readonly order: number;
	readonly position: number | undefined;
	readonly fileClassPosition: number | undefined;
	readonly laps: number;
	readonly time: number | undefined;
	readonly status: EntryStatus;
	readonly statusInferred: boolean;
	readonly reason: string | undefined;
	readonly carClass: string | undefined;
	readonly simId: string | undefined;
	readonly team: string | undefined;
	readonly car: string | undefined;
	/** Every `<ControlAndAids>` of the car says AIControl: the computer drove it. */
	readonly ai: boolean;
}

interface Session {
	readonly tag: string;
	readonly node: XmlNode;
}

const SESSION_TAG = /^(Race|Qualify|Practice|Warmup|TestDay)(\d*)$/;
const SESSION_WORDS: Readonly<Record<string, string>> = {
	Race: 'race',
	Qualify: 'qualify',
	Practice: 'practice',
	Warmup: 'warmup',
	TestDay: 'test day',
};

export const rfactorXmlReader: ResultReader = {
	id: 'rfactor-xml',
	name: 'rFactor 2 / Le Mans Ultimate / Automobilista / rFactor / Game Stock Car XML results',
	detect(text: string): boolean {
		return text.slice(0, 1000).includes('<rFactorXML');
	},
	read(text: string): ResultFile {
		const { root, streams } = parseRfactorXml(text);
		const sim = simName(root);
		const sessions = listSessions(root);
		const races = sessions.filter((s) => s.tag.startsWith('Race'));
		if (races.length === 0) {
			const held = sessions.map((s) => sessionWords(s.tag)).join(', ');
			throw new ResultFileError(
				sessions.length === 0
					? `this ${sim} results file holds no session (no <Race>, <Qualify> or <Practice> element)`
					: `this ${sim} results file holds no race session, only ${held}: send the race's results file`,
			);
		}
		const race = races.at(-1)!;
		const warnings: string[] = [];
		const sessionName =
			races.length > 1
				? `${sessionWords(race.tag)} (the last of ${races.length} race sessions in the file)`
				: sessionWords(race.tag);
		if (races.length > 1) {
			warnings.push(
				`the file holds ${races.length} race sessions (${races.map((r) => r.tag).join(', ')}): read the last, ${race.tag}`,
			);
		}

		const slots = mergeReconnects(sortByPosition(readSlots(race.node, warnings), warnings), warnings);
		if (slots.length === 0) throw new ResultFileError(`the ${sessionWords(race.tag)} session lists no driver`);
		noteNoStatus(slots, warnings);
		const ai = slots.filter((s) => s.ai).map((s) => s.name);
		if (ai.length > 0) {
			warnings.push(`driven by the AI (ControlAndAids says AIControl), kept in the classification: ${ai.join(', ')}`);
		}
		const { ordered, reordered } = classify(slots, warnings);
		const entries = toEntries(ordered, reordered, streams.of(race.node), warnings);

		const track = text1(root, 'TrackCourse') ?? text1(root, 'TrackVenue') ?? text1(root, 'TrackEvent');
		const date = /^(\d{4})\/(\d{2})\/(\d{2})/.exec(text1(race.node, 'TimeString') ?? text1(root, 'TimeString') ?? '');
		return {
			format: 'rfactor-xml',
			formatName: `${sim} results (XML)`,
			session: sessionName,
			...(track ? { track } : {}),
			...(date ? { date: `${date[1]}-${date[2]}-${date[3]}` } : {}),
			entries,
			warnings,
		};
	},
};

function simName(root: XmlNode): string {
	const mod = text1(root, 'Mod');
	if (mod !== undefined && /reiza\d+\.rfm$/i.test(mod)) return 'Game Stock Car Extreme';
	if (mod !== undefined && /\.srs$/i.test(mod)) return 'Automobilista';
	if (text1(root, 'GameVersion') === '1.255') return 'rFactor';
	const install = text1(root, 'TrackData') ?? '';
	if (/Le Mans Ultimate/i.test(install)) return 'Le Mans Ultimate';
	if (mod !== undefined || /rFactor 2/i.test(install)) return 'rFactor 2';
	return 'rFactor 2 / Le Mans Ultimate';
}

function listSessions(root: XmlNode): Session[] {
	const sessions: Session[] = [];
	for (const [tag, value] of Object.entries(root)) {
		if (!SESSION_TAG.test(tag)) continue;
		for (const item of Array.isArray(value) ? value : [value]) sessions.push({ tag, node: node(item) ?? {} });
	}
	return sessions;
}

function sessionWords(tag: string): string {
	const [, kind, number] = SESSION_TAG.exec(tag)!;
	return number ? `${SESSION_WORDS[kind!]} ${number}` : SESSION_WORDS[kind!]!;
}

function readSlots(session: XmlNode, warnings: string[]): Slot[] {
	const drivers = Array.isArray(session.Driver) ? session.Driver : [];
	const slots: Slot[] = [];
	const unknownStatus = new Set<string>();
	drivers.forEach((item, order) => {
		const driver = node(item) ?? {};
		const name = cleanName(text1(driver, 'Name') ?? '');
		if (name === '') return; // an empty slot
		const laps = readLaps(driver, name, warnings);
		const statusText = (text1(driver, 'FinishStatus') ?? '').trim();
		const { status, inferred } = readStatus(statusText, laps);
		if (inferred && statusText !== 'None') unknownStatus.add(statusText === '' ? '(none)' : statusText);
		const reason = cleanName(text1(driver, 'DNFReason') ?? '');
		const steam = (text1(driver, 'SteamId') ?? text1(driver, 'SteamID') ?? '').trim();
		const time = decimal(text1(driver, 'FinishTime'));
		slots.push({
			name,
			order,
			position: count(text1(driver, 'Position')),
			fileClassPosition: count(text1(driver, 'ClassPosition')),
			laps,
			time: time !== undefined && time > 0 ? time : undefined,
			status,
			statusInferred: inferred,
			reason: status !== 'finished' && reason !== '' && reason.toUpperCase() !== 'DNF' ? reason : undefined,
			carClass: optional(text1(driver, 'CarClass')),
			simId: /^\d+$/.test(steam) && !/^0+$/.test(steam) ? `steam:${steam}` : undefined,
			team: optional(text1(driver, 'TeamName')),
			car: optional(text1(driver, 'CarType')) ?? optional(text1(driver, 'VehName')),
			ai: drivenByAi(driver),
		});
	});
	if (unknownStatus.size > 0) {
		warnings.push(`FinishStatus ${[...unknownStatus].join(', ')} is not one this reader knows: read like "None"`);
	}
	return slots;
}

/** `<isPlayer>` does not tell (league files mark most humans 0); the control written per stint does. */
function drivenByAi(driver: XmlNode): boolean {
	const value: unknown = driver.ControlAndAids;
	const stints = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
	return stints.length > 0 && stints.every((stint) => /^AIControl\b/.test(stint.trim()));
}

function readLaps(driver: XmlNode, name: string, warnings: string[]): number {
	const laps = count(text1(driver, 'Laps'), true);
	if (laps !== undefined) return laps;
	const runs: unknown = driver[LAP_COUNT];
	const listed = (Array.isArray(runs) ? runs : []).reduce(
		(sum: number, run) => sum + (count(String(run), true) ?? 0),
		0,
	);
	warnings.push(`${name}: no <Laps>: counted ${listed} <Lap> elements`);
	return listed;
}

function readStatus(text: string, laps: number): { status: EntryStatus; inferred: boolean } {
	switch (text.toLowerCase()) {
		case 'finished normally':
			return { status: 'finished', inferred: false };
		case 'dnf':
			return { status: 'DNF', inferred: false };
		case 'dq':
			return { status: 'DSQ', inferred: false };
		default:
			// "None": the file states no result. A car that never completed a lap did not start.
			return { status: laps > 0 ? 'DNF' : 'DNS', inferred: true };
	}
}

function noteNoStatus(slots: readonly Slot[], warnings: string[]): void {
	const none = slots.filter((s) => s.statusInferred);
	if (none.length === 0) return;
	const list = none.map((s) => `${s.name} (${s.laps} lap${s.laps === 1 ? '' : 's'}: ${s.status})`).join(', ');
	warnings.push(
		`${none.length === 1 ? '1 racer has' : `${none.length} racers have`} no finish status (FinishStatus None): ` +
			`read as DNF with laps, DNS without: ${list}`,
	);
}

/** Slot order is not classification order: sort by `<Position>`; slots without one go last, in file order. */
function sortByPosition(slots: Slot[], warnings: string[]): Slot[] {
	const missing = slots.filter((s) => s.position === undefined);
	if (missing.length > 0) {
		warnings.push(`no <Position> for ${missing.map((s) => s.name).join(', ')}: listed after the others`);
	}
	return slots.slice().sort((a, b) => (a.position ?? Infinity) - (b.position ?? Infinity) || a.order - b.order);
}

/** The same driver in several slots (a reconnect): the best-classified slot stands for them. */
function mergeReconnects(slots: readonly Slot[], warnings: string[]): Slot[] {
	const kept = new Map<string, Slot>();
	const dropped = new Map<string, number>();
	const keyOf = (s: Slot): string[] => [s.name.toLowerCase(), ...(s.simId ? [s.simId] : [])];
	const result: Slot[] = [];
	for (const slot of slots) {
		const first = keyOf(slot)
			.map((k) => kept.get(k))
			.find((s) => s !== undefined);
		if (first) {
			dropped.set(first.name, (dropped.get(first.name) ?? 1) + 1);
			continue;
		}
		for (const k of keyOf(slot)) kept.set(k, slot);
		result.push(slot);
	}
	for (const [name, slotsOfName] of dropped) {
		warnings.push(`${name} is in ${slotsOfName} slots (reconnected?): kept the best-placed one`);
	}
	return result;
}

/**
 * Finishers first, then the others in the file's order, disqualified cars last. Re-sorts the finishers when their
 * positions contradict their times (simresults' corruption check: same laps as the finisher ahead, lower total time).
 */
function classify(slots: readonly Slot[], warnings: string[]): { ordered: Slot[]; reordered: boolean } {
	let finishers = slots.filter((s) => s.status === 'finished');
	const others = slots.filter((s) => s.status !== 'finished');
	let reordered = false;

	const lastFinisher = slots.findLastIndex((s) => s.status === 'finished');
	const ahead = slots.slice(0, lastFinisher).filter((s) => s.status !== 'finished');
	if (ahead.length > 0) {
		reordered = true;
		const list = ahead.map((s) => `${s.name} (${s.status}, ${s.laps} laps, ${ordinal(s.position)} in the file)`);
		warnings.push(
			`the file ranks non-finishers ahead of finishers: ${list.join(', ')}; ` +
				'listed after all finishers (positions and class positions renumbered)',
		);
	}

	const wrong = finishers.findIndex(
		(s, i) =>
			i > 0 &&
			s.laps === finishers[i - 1]!.laps &&
			s.time !== undefined &&
			finishers[i - 1]!.time !== undefined &&
			s.time < finishers[i - 1]!.time!,
	);
	if (wrong > 0) {
		reordered = true;
		const [behind, front] = [finishers[wrong]!, finishers[wrong - 1]!];
		warnings.push(
			`positions in the file contradict the times: ${behind.name} (${ordinal(behind.position)}, ${behind.time} s) ` +
				`beat ${front.name} (${ordinal(front.position)}, ${front.time} s) on the same ${front.laps} laps; ` +
				'finishers re-sorted by laps, then total time (positions and class positions renumbered)',
		);
		finishers = finishers
			.slice()
			.sort((a, b) => b.laps - a.laps || (a.time ?? Infinity) - (b.time ?? Infinity) || a.order - b.order);
	}
	// Disqualified cars last (docs/result-files.md), the others in the file's order.
	const ordered = [
		...finishers,
		...others.filter((s) => s.status !== 'DSQ'),
		...others.filter((s) => s.status === 'DSQ'),
	];
	return { ordered, reordered };
}

function toEntries(slots: readonly Slot[], reordered: boolean, stream: string, warnings: string[]): ResultEntry[] {
	const penalties = readStreamPenalties(stream);
	const byName = new Map<string, readonly string[]>();
	for (const [name, words] of penalties.byName) byName.set(name.toLowerCase(), words);
	const known = new Set(slots.map((s) => s.name.toLowerCase()));
	const strangers = [...penalties.byName.keys()].filter((name) => !known.has(name.toLowerCase()));
	if (strangers.length > 0) warnings.push(`penalties for drivers not in the race left out: ${strangers.join(', ')}`);
	for (const text of penalties.notUnderstood.slice(0, 5)) warnings.push(`penalty line not understood: ${text}`);

	const inClass = new Map<string, number>();
	let classesDiffer = false;
	const entries = slots.map((slot, i): ResultEntry => {
		let classPosition: number | undefined;
		if (slot.carClass !== undefined) {
			const counted = (inClass.get(slot.carClass) ?? 0) + 1;
			inClass.set(slot.carClass, counted);
			classPosition = reordered || slot.fileClassPosition === undefined ? counted : slot.fileClassPosition;
			if (classPosition !== counted) classesDiffer = true;
		}
		const words = [...(byName.get(slot.name.toLowerCase()) ?? []), ...(slot.status === 'DSQ' ? ['disqualified'] : [])];
		return {
			name: slot.name,
			position: i + 1,
			status: slot.status,
			...(slot.statusInferred ? { statusInferred: true } : {}),
			...(slot.reason !== undefined ? { reason: slot.reason } : {}),
			...(slot.time !== undefined ? { totalTime: slot.time } : {}),
			laps: slot.laps,
			...(slot.carClass !== undefined ? { carClass: slot.carClass, classPosition } : {}),
			...(slot.simId !== undefined ? { simId: slot.simId } : {}),
			...(slot.team !== undefined ? { team: slot.team } : {}),
			...(slot.car !== undefined ? { car: slot.car } : {}),
			...(words.length > 0 ? { penalties: words } : {}),
		};
	});
	if (classesDiffer) {
		warnings.push("the file's class positions do not follow its overall order: kept as the file gives them");
	}
	return entries;
}

function optional(text: string | undefined): string | undefined {
	const cleaned = cleanName(text ?? '');
	return cleaned === '' ? undefined : cleaned;
}

function count(text: string | undefined, zero = false): number | undefined {
	const trimmed = text?.trim() ?? '';
	if (!/^\d+$/.test(trimmed)) return undefined;
	const value = Number(trimmed);
	return value > 0 || zero ? value : undefined;
}

/** `1250.2322` → 1250.2322 (seconds as written; Number reads the decimal exactly as a JS number can hold it). */
function decimal(text: string | undefined): number | undefined {
	const trimmed = text?.trim() ?? '';
	return /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : undefined;
}

function ordinal(n: number | undefined): string {
	if (n === undefined) return 'unplaced';
	const tens = n % 100;
	const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
	return `${n}${suffix}`;
}
