import { nameKey } from '../../league/race-log-checks.js';
import { seasonsOf } from '../../league/seasons.js';
import type { LeagueInfo, LeagueRepository } from '../../storage/ports.js';
import type { Actor } from '../actor.js';
import type { LeagueService } from '../leagues/league-service.js';

/** Autocomplete choices (Discord allows 25): prefix matches first, then substring matches, case-insensitive. */

export const MAX_CHOICES = 25;

export interface Choice {
	readonly name: string;
	readonly value: string;
}

export function rankChoices(typed: string, choices: readonly Choice[]): Choice[] {
	const key = nameKey(typed);
	const prefix: Choice[] = [];
	const inside: Choice[] = [];
	const seen = new Set<string>();
	for (const choice of choices) {
		if (seen.has(choice.value)) continue;
		const k = nameKey(choice.name);
		if (k.startsWith(key)) prefix.push(choice);
		else if (k.includes(key)) inside.push(choice);
		else continue;
		seen.add(choice.value);
	}
	const clip = (s: string) => (s.length > 100 ? `${s.slice(0, 99)}…` : s);
	return [...prefix, ...inside]
		.slice(0, MAX_CHOICES)
		.map((c) => ({ name: clip(c.name), value: c.value.slice(0, 100) }));
}

export interface AutocompleteService {
	leagues(actor: Actor, typed: string): Promise<Choice[]>;
	players(actor: Actor, league: string | undefined, typed: string): Promise<Choice[]>;
	races(actor: Actor, league: string | undefined, typed: string): Promise<Choice[]>;
	/** The league's seasons (seasons.ts), newest first. */
	seasons(actor: Actor, league: string | undefined, typed: string): Promise<Choice[]>;
	/** The cars the league's results name (each entry's car, else its team: what a rating of cars reads), latest first. */
	cars(actor: Actor, league: string | undefined, typed: string): Promise<Choice[]>;
}

export function createAutocompleteService(repo: LeagueRepository, leagues: LeagueService): AutocompleteService {
	/** Autocomplete never fails loudly: an unresolvable league gives no choices. */
	const leagueOf = (actor: Actor, ref: string | undefined) => leagues.resolve(actor, ref).catch(() => undefined);
	return {
		async leagues(actor, typed) {
			if (actor.guildId === undefined) return [];
			const all = await leagues.list(actor.guildId);
			return rankChoices(
				typed,
				all.map((l) => ({ name: l.config.name, value: l.config.name })),
			);
		},
		async players(actor, leagueRef, typed) {
			const league = await leagueOf(actor, leagueRef);
			const choicesOf = async (info: LeagueInfo) =>
				(await repo.loadState(info.id))
					.players()
					.flatMap((p) => [
						{ name: p.name, value: p.name },
						...p.aliases.map((a) => ({ name: `${a} (${p.name})`, value: p.name })),
					]);
			if (league) return rankChoices(typed, await choicesOf(league));
			// No league option in a server of several: every league's players, each named with its league (/rating
			// and /odds take the league where the players chosen play, league-of-players.ts).
			if (leagueRef !== undefined || actor.guildId === undefined) return [];
			// One choice per name (or alias), with every league it plays in.
			const byLabel = new Map<string, { value: string; leagues: string[] }>();
			for (const info of await leagues.list(actor.guildId)) {
				for (const choice of await choicesOf(info)) {
					const entry = byLabel.get(choice.name) ?? { value: choice.value, leagues: [] };
					entry.leagues.push(info.config.name);
					byLabel.set(choice.name, entry);
				}
			}
			const choices = [...byLabel].map(([label, { value, leagues: names }]) => ({
				name: `${label} · ${names.join(', ')}`,
				value,
			}));
			return rankChoices(typed, choices);
		},
		async races(actor, leagueRef, typed) {
			const league = await leagueOf(actor, leagueRef);
			if (!league) return [];
			const state = await repo.loadState(league.id);
			const several = actor.guildId !== undefined && (await leagues.list(actor.guildId)).length > 1;
			const choices = [...state.races()].reverse().map((r) => ({
				name: `${r.id}${r.name ? ` “${r.name}”` : ''}${r.date ? ` ${r.date}` : ''}${r.status === 'voided' ? ' (voided)' : ''} · ${r.entries.length} racers`,
				value: several ? `${league.config.name}/${r.id}` : r.id,
			}));
			return rankChoices(typed, choices);
		},
		async cars(actor, leagueRef, typed) {
			const league = await leagueOf(actor, leagueRef);
			if (!league) return [];
			const names = new Set<string>();
			const rated = (await repo.loadState(league.id)).ratedRaces();
			for (let i = rated.length - 1; i >= 0; i--) {
				for (const entry of rated[i]!.race.entries) {
					const car = entry.car ?? entry.team;
					if (car !== undefined) names.add(car);
				}
			}
			return rankChoices(
				typed,
				[...names].map((name) => ({ name, value: name })),
			);
		},
		async seasons(actor, leagueRef, typed) {
			const league = await leagueOf(actor, leagueRef);
			if (!league) return [];
			const seasons = [...seasonsOf(await repo.loadState(league.id))].reverse();
			return rankChoices(
				typed,
				seasons.map((s) => ({
					name: `${s.name} · ${s.start}${s.end === undefined ? ' –' : ` – ${s.end}`}`,
					value: s.name,
				})),
			);
		},
	};
}
