/**
 * A generated big league: `races` races of `racers` drivers each, drawn from a pool of `players`, one
 * race a day from 1990-01-01, seeded so every run builds the same league. Written as a league built race by race
 * would have left it: the configuration event, one `race-submitted` event per race, the server's league list and a
 * league-state record at the head (no rating snapshots: the first process to rate the league writes them).
 */
import type { LoggedEvent } from '../src/league/league-events.js';
import { addDays } from '../src/league/dates.js';
import { createLeagueLog } from '../src/league/race-log.js';
import { appendEvent } from '../src/storage/event-log.js';
import { createLeagueRepository } from '../src/storage/league-repository.js';
import type { Store } from '../src/storage/ports.js';
import { createLeagueStateStore } from '../src/storage/league-state-store.js';
import { mulberry32 } from '../test/support/mulberry32.js';

export interface BigLeagueSpec {
	readonly races: number;
	readonly racers: number;
	readonly players: number;
	readonly seed: number;
}

export const BIG_LEAGUE: BigLeagueSpec = { races: 15_000, racers: 20, players: 2_000, seed: 9 };

/** The generated league's id in `store` (by default guild `bench`, name `Big`; headline folyami). */
export async function buildBigLeague(
	store: Store,
	spec: BigLeagueSpec = BIG_LEAGUE,
	{ guildId = 'bench', name = 'Big' }: { guildId?: string; name?: string } = {},
): Promise<string> {
	const repo = createLeagueRepository(store, { systems: [], clock: () => new Date('2026-01-01T00:00:00Z') });
	const { id } = await repo.createLeague({ guildId, name, headline: 'folyami', params: {}, timezone: 'UTC' }, 'bench');
	const [configured] = await repo.readEvents(id);
	const log = createLeagueLog();
	log.apply(configured!);
	const events = store.namespace('events');
	const random = mulberry32(spec.seed);
	for (let r = 0; r < spec.races; r++) {
		const field = new Set<number>();
		while (field.size < spec.racers) field.add(Math.floor(random() * spec.players));
		const entries = [...field].map((p, i) => ({
			// R1's last racer races only there: a player `/player merge` can merge into anyone not in R1.
			player: r === 0 && i === spec.racers - 1 ? 'Rookie' : `Driver ${String(p).padStart(4, '0')}`,
			position: i + 1,
			time: 60 + i + random(),
			status: random() < 0.05 ? ('DNF' as const) : ('finished' as const),
		}));
		const race = { date: addDays('1990-01-01', r), mode: 'tt' as const, entries };
		const event = JSON.parse(
			JSON.stringify({ type: 'race-submitted', race, by: 'bench', at: '2026-01-01T00:00:00Z', seq: r + 1 }),
		) as LoggedEvent;
		if (!(await appendEvent(events, id, event))) throw new Error(`event ${event.seq} of ${id} already exists`);
		log.apply(event);
	}
	await createLeagueStateStore(store.namespace('league-state')).write(id, log.snapshot());
	return id;
}
