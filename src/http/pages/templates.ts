/**
 * The league web pages' HTML (docs/web.md), rendered on the server with Eta: every `<%= %>` is HTML-escaped by Eta
 * (autoEscape), so a player named `<script>` shows as text; nothing here escapes by hand. The templates are strings
 * registered at load (no file reads, the same under tsx and built). Plain HTML and a little CSS: no JavaScript, one
 * column that fits a phone, tables that scroll sideways when wider than the screen.
 */
import { Eta } from 'eta';
import type { WebPlayer } from '../../services/web/league-web-service.js';
import type { ChartSvg } from './rating-chart-svg.js';

const eta = new Eta({ autoEscape: true, autoTrim: false, useWith: false, cache: true });

const STYLE = `
body{font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:48rem;padding:0 .75rem 2rem;color:#1b1b1f;background:#fff}
@media (prefers-color-scheme:dark){body{color:#e6e6ea;background:#131316}a{color:#8ab4ff}th,td{border-color:#333}}
h1{font-size:1.5rem;margin:1rem 0 .25rem}h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
.meta{color:#777;font-size:.9rem;margin:.25rem 0 1rem}
.scroll{overflow-x:auto}table{border-collapse:collapse;width:100%}
th,td{padding:.35rem .5rem;border-bottom:1px solid #ddd;text-align:left;white-space:nowrap}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
nav a,nav strong{margin-right:.75rem}nav.pages{margin:.5rem 0;display:flex;flex-wrap:wrap;gap:.25rem .75rem}nav.pages a{margin:0}ul{padding-left:1.2rem}
@media (max-width:30rem){th,td{padding:.3rem .2rem;font-size:.85rem}th{white-space:normal}}
.note{border-left:3px solid #c77700;padding:.25rem .75rem;margin:.75rem 0;background:#fff6e5}
.why{color:#555;font-size:.9rem;margin:.15rem 0 .6rem}.why p{margin:.1rem 0}
ol.races{list-style:none;padding:0}ol.races>li{padding:.4rem 0;border-bottom:1px solid #ddd}
.up{color:#137333}.down{color:#b3261e}
svg.chart{display:block;width:100%;max-width:40rem;height:auto;margin:.5rem 0}
svg.chart text{font-size:11px;fill:#666}svg.chart .axis{stroke:#ccc;stroke-width:1}
svg.chart .band{fill:#2563eb;fill-opacity:.15}svg.chart .line{fill:none;stroke:#2563eb;stroke-width:2}
svg.chart .dash{stroke-dasharray:5 4}svg.chart .dot{fill:#2563eb}
@media (prefers-color-scheme:dark){.note{background:#2b2110;border-color:#e0a040}.why{color:#b8b8c0}ol.races>li{border-color:#333}
.up{color:#7bd88f}.down{color:#ff8a80}.meta{color:#9a9aa2}
svg.chart text{fill:#a8a8b0}svg.chart .axis{stroke:#444}svg.chart .band{fill:#8ab4ff;fill-opacity:.2}
svg.chart .line{stroke:#8ab4ff}svg.chart .dot{fill:#8ab4ff}}
`;

eta.loadTemplate(
	'@layout',
	`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<% if (it.noindex) { %><meta name="robots" content="noindex">
<% } %><title><%= it.title %></title>
<style>${STYLE}</style>
</head>
<body>
<%~ it.body %>
<p class="meta">pitwall · ratings as the bot computes them</p>
</body>
</html>
`,
);

eta.loadTemplate(
	'@home',
	`<h1>Leagues</h1>
<% if (it.leagues.length === 0) { %><p>No league is public yet. An organizer makes one public with <code>/league config visibility:public</code>.</p>
<% } else { %><ul>
<% for (const league of it.leagues) { %><li><a href="/leagues/<%= encodeURIComponent(league.id) %>"><%= league.name %></a> <span class="meta">(<%= league.headline %>)</span></li>
<% } %></ul>
<% } %>`,
);

eta.loadTemplate(
	'@league',
	`<nav><a href="/">All leagues</a></nav>
<h1><%= it.name %></h1>
<p class="meta"><%= it.system %> · as of <%= it.asOf %> · <%= it.players %> players<% if (it.provisional) { %> · † provisional<% } %></p>
<p><a href="<%= it.forecast %>">Championship forecast</a></p>
<% if (it.championship) { const c = it.championship; %><h2>Championship <%= c.season %></h2>
<% if (c.rows.length === 0) { %><p>No points yet this season.</p>
<% } else { %><div class="scroll"><table>
<thead><tr><th class="n">Pos</th><th>Player</th><th class="n">Pts</th><th class="n">Wins</th><th class="n">Podiums</th></tr></thead>
<tbody>
<% for (const r of c.rows) { %><tr><td class="n"><%= r.place %></td><td><a href="<%= r.href %>"><%= r.player %></a></td><td class="n"><%= r.points %></td><td class="n"><%= r.wins %></td><td class="n"><%= r.podiums %></td></tr>
<% } %></tbody>
</table></div>
<% } %><p class="meta"><%= c.about %> · <a href="<%= c.href %>"><%= c.more %></a></p>
<% } %><h2>Leaderboard</h2>
<nav><% for (const s of it.systems) { %><% if (s === it.system) { %><strong><%= s %></strong> <% } else { %><a href="?system=<%= encodeURIComponent(s) %>"><%= s %></a> <% } %><% } %></nav>
<% if (it.rows.length === 0) { %><p>No standings yet: no race has been rated.</p>
<% } else { %><div class="scroll"><table>
<thead><tr><th class="n">#</th><th>Player</th><th class="n">Rating</th><th class="n"><%= it.uncertaintyName %></th><th class="n">Races</th></tr></thead>
<tbody>
<% for (const r of it.rows) { %><tr><td class="n"><%= r.rank %></td><td><a href="<%= r.href %>"><%= r.player %></a><%= r.provisional ? '†' : '' %></td><td class="n"><%= r.rating %></td><td class="n"><%= r.uncertainty %></td><td class="n"><%= r.races %></td></tr>
<% } %></tbody>
</table></div>
<% if (it.pager.pages > 1) { const p = it.pager; %><nav class="pages" aria-label="Leaderboard pages"><% if (p.first) { %><a href="<%= p.first %>">« First</a><a href="<%= p.previous %>" rel="prev">‹ Previous</a><% } %><span>Page <%= p.page %> of <%= p.pages %> (rows <%= p.from %>–<%= p.to %>)</span><% if (p.next) { %><a href="<%= p.next %>" rel="next">Next ›</a><a href="<%= p.last %>">Last »</a><% } %></nav>
<% } %><% } %><p class="meta"><a href="<%= it.csv %>">Download CSV</a> · <a href="<%= it.json %>">JSON</a> (every row)</p>
<h2>Last races</h2>
<% if (it.races.length === 0) { %><p>No race yet.</p>
<% } else { %><ul>
<% for (const race of it.races) { %><li><a href="<%= race.href %>"><strong><%= race.id %></strong><% if (race.name) { %> <%= race.name %><% } %></a><% if (race.date) { %> · <%= race.date %><% } %> · <%= race.racers %> racers<% if (race.podium.length > 0) { %>: <%= race.podium.map((p) => p.position + '. ' + p.player).join(', ') %><% } %></li>
<% } %></ul>
<% } %>`,
);

eta.loadTemplate(
	'@player',
	`<nav><a href="<%= it.back %>"><%= it.league %></a></nav>
<h1><%= it.name %></h1>
<h2>Ratings</h2>
<div class="scroll"><table>
<thead><tr><th>System</th><th class="n">#</th><th class="n">Rating</th><th class="n">Uncertainty</th><th class="n">Races</th></tr></thead>
<tbody>
<% for (const s of it.systems) { %><tr><td><%= s.system %></td><% if (s.row) { %><td class="n"><%= s.row.rank %></td><td class="n"><%= s.row.rating %><%= s.row.provisional ? '†' : '' %></td><td class="n"><%= s.row.uncertainty %></td><td class="n"><%= s.row.races %></td><% } else { %><td colspan="4">not on the leaderboard</td><% } %></tr>
<% } %></tbody>
</table></div>
<h2>Rating history</h2>
<% if (it.chart) { const c = it.chart; %><svg class="chart" viewBox="0 0 <%= c.width %> <%= c.height %>" role="img" aria-label="<%= c.summary %>">
<% for (const t of c.yTicks) { %><line class="axis" x1="<%= c.plot.left %>" x2="<%= c.plot.right %>" y1="<%= t.y %>" y2="<%= t.y %>"/><text x="<%= c.plot.left - 4 %>" y="<%= t.y + 4 %>" text-anchor="end"><%= t.label %></text>
<% } %><% for (const t of c.xTicks) { %><text x="<%= t.x %>" y="<%= c.height - 6 %>" text-anchor="<%= t.anchor %>"><%= t.label %></text>
<% } %><% for (const b of c.bands) { %><polygon class="band" points="<%= b %>"/>
<% } %><% for (const l of c.lines) { %><path class="line<%= l.provisional ? ' dash' : '' %>" d="<%= l.d %>"/>
<% } %><% for (const m of c.markers) { %><circle class="dot" cx="<%= m.x %>" cy="<%= m.y %>" r="2.5"><title><%= m.title %></title></circle>
<% } %></svg>
<p class="meta"><%= it.system %><% if (c.bandLabel) { %> · band: <%= c.bandLabel %><% } %> · dashed: provisional · a dot after each race</p>
<% } else { %><p>No rated race yet in <%= it.system %>.</p>
<% } %>
<h2>Races</h2>
<% if (it.races.length === 0) { %><p>No race yet.</p>
<% } else { %><p class="meta">Why each race moved the <%= it.system %> rating: the place against the expected one, the opponents, the change's parts.</p>
<ol class="races">
<% for (const race of it.races) { %><li><a href="<%= race.href %>"><strong><%= race.id %></strong><% if (race.name) { %> <%= race.name %><% } %></a><% if (race.date) { %> · <%= race.date %><% } %> · <%= race.status === 'finished' ? race.position + ' of ' + race.racers : race.status + ' (' + race.racers + ' racers)' %><% if (race.change) { %> · <span class="<%= race.change.startsWith('−') ? 'down' : 'up' %>"><%= race.change %></span><% } %>
<% if (race.why) { %><div class="why"><% for (const line of race.why) { %><p><%= line %></p><% } %></div><% } else { %><div class="why"><p>Not rated in <%= it.system %>.</p></div><% } %></li>
<% } %></ol>
<% } %>`,
);

eta.loadTemplate(
	'@race',
	`<nav><a href="<%= it.back %>"><%= it.league %></a></nav>
<h1><%= it.id %><% if (it.name) { %> <%= it.name %><% } %></h1>
<p class="meta"><% if (it.date) { %><%= it.date %> · <% } %><%= it.results.length %> racers · rating changes in <%= it.system %></p>
<% if (it.voided) { %><p class="note">This race is voided: it counts for no rating.</p>
<% } %><% if (it.unrated) { %><p class="note"><%= it.system %> did not rate this race: <%= it.unrated %></p>
<% } %><% for (const h of it.history) { %><p class="note"><%= h.kind %> on <%= h.on %>: <%= h.reason %></p>
<% } %><h2>Classification</h2>
<div class="scroll"><table>
<thead><tr><th class="n">Pos</th><th>Player</th><% if (it.timed) { %><th class="n">Time</th><% } %><th class="n">Exp.</th><th class="n">Rating</th><th class="n">Change</th></tr></thead>
<tbody>
<% for (const r of it.results) { %><tr><td class="n"><%= r.place %></td><td><a href="<%= r.href %>"><%= r.player %></a></td><% if (it.timed) { %><td class="n"><%= r.time %></td><% } %><% if (r.rating) { %><td class="n"><%= r.rating.expected %></td><td class="n"><%= r.rating.before %> → <%= r.rating.after %></td><td class="n <%= r.rating.change.startsWith('−') ? 'down' : 'up' %>"><%= r.rating.change %></td><% } else { %><td colspan="3"><%= r.unrated %></td><% } %></tr>
<% } %></tbody>
</table></div>
<% if (it.explained.length > 0) { %><h2>Why the ratings moved</h2>
<ol class="races">
<% for (const e of it.explained) { %><li><a href="<%= e.href %>"><%= e.player %></a>: <%= e.summary %><div class="why"><% for (const line of e.lines) { %><p><%= line %></p><% } %></div></li>
<% } %></ol>
<% } %><p class="meta"><a href="<%= it.json %>">JSON</a></p>`,
);

eta.loadTemplate(
	'@forecast',
	`<nav><a href="<%= it.back %>"><%= it.league %></a></nav>
<h1>Championship forecast<% if (it.year) { %> <%= it.year %><% } %></h1>
<p class="meta"><%= it.system %> · as of <%= it.asOf %></p>
<% if (it.reason) { %><p class="note">No forecast: <%= it.reason %></p>
<% } else { %><p><%= it.how %></p>
<div class="scroll"><table>
<thead><tr><th class="n">#</th><th>Player</th><th class="n">Points</th><th class="n">Title</th><th class="n">Top 3</th><th class="n">Expected</th></tr></thead>
<tbody>
<% for (const r of it.rows) { %><tr><td class="n"><%= r.n %></td><td><a href="<%= r.href %>"><%= r.player %></a></td><td class="n"><%= r.points %></td><td class="n"><%= r.title %></td><td class="n"><%= r.top3 %></td><td class="n"><%= r.expected %></td></tr>
<% } %></tbody>
</table></div>
<% for (const line of it.notes) { %><p class="meta"><%= line %></p>
<% } %><% } %><p class="meta"><a href="<%= it.json %>">JSON</a></p>`,
);

eta.loadTemplate(
	'@championship',
	`<nav><a href="<%= it.back %>"><%= it.league %></a></nav>
<h1>Championship<% if (it.season) { %> <%= it.season %><% } %></h1>
<p class="meta">as of <%= it.asOf %><% if (it.about) { %> · <%= it.about %><% } %></p>
<% if (it.seasons.length > 1) { %><nav><% for (const s of it.seasons) { %><% if (s.current) { %><strong><%= s.name %></strong> <% } else { %><a href="<%= s.href %>"><%= s.name %></a> <% } %><% } %></nav>
<% } %><% if (it.reason) { %><p class="note"><%= it.reason %></p>
<% } else if (it.rows.length === 0) { %><p>No points yet this season.</p>
<% } else { %><div class="scroll"><table>
<thead><tr><th class="n">Pos</th><th>Player</th><th class="n">Pts</th><th class="n">Wins</th><th class="n">Podiums</th><th class="n">Races</th><% if (it.deductions) { %><th class="n">Deducted</th><% } %></tr></thead>
<tbody>
<% for (const r of it.rows) { %><tr><td class="n"><%= r.place %></td><td><a href="<%= r.href %>"><%= r.player %></a></td><td class="n"><%= r.points %></td><td class="n"><%= r.wins %></td><td class="n"><%= r.podiums %></td><td class="n"><%= r.races %></td><% if (it.deductions) { %><td class="n"><%= r.deducted %></td><% } %></tr>
<% } %></tbody>
</table></div>
<% if (it.teams.length > 0) { %><h2>Teams</h2>
<div class="scroll"><table>
<thead><tr><th class="n">Pos</th><th>Team</th><th class="n">Pts</th><th class="n">Wins</th><th class="n">Podiums</th></tr></thead>
<tbody>
<% for (const t of it.teams) { %><tr><td class="n"><%= t.place %></td><td><%= t.team %></td><td class="n"><%= t.points %></td><td class="n"><%= t.wins %></td><td class="n"><%= t.podiums %></td></tr>
<% } %></tbody>
</table></div>
<% } %><% } %><p class="meta"><a href="<%= it.json %>">JSON</a></p>`,
);

eta.loadTemplate(
	'@missing',
	`<nav><a href="/">All leagues</a></nav>
<h1>No such league</h1>
<p>There is no public league at this address. A league's organizers choose whether it has a page (<code>/league config visibility:</code>).</p>
`,
);

export interface PageShell {
	readonly title: string;
	/** Unlisted leagues' pages ask search engines not to index them. */
	readonly noindex?: boolean;
}

export interface HomePage {
	readonly leagues: readonly { readonly id: string; readonly name: string; readonly headline: string }[];
}

/** A championship table's row as text (`3=` for a shared place). */
export interface ChampionshipRowText {
	readonly place: string;
	readonly player: string;
	readonly href: string;
	readonly points: string;
	readonly wins: number;
	readonly podiums: number;
	readonly races: number;
	readonly deducted: string;
}

export interface LeaguePage {
	readonly name: string;
	/** Players on the whole leaderboard (the rows are one page of it). */
	readonly players: number;
	/** The leaderboard's pages (100 rows each): links to the first, previous, next and last (absent at either end). */
	readonly pager: {
		readonly page: number;
		readonly pages: number;
		readonly from: number;
		readonly to: number;
		readonly first?: string | undefined;
		readonly previous?: string | undefined;
		readonly next?: string | undefined;
		readonly last?: string | undefined;
	};
	/** The current season's top of the championship table; absent when the league has no season. */
	readonly championship?:
		| {
				readonly season: string;
				readonly rows: readonly ChampionshipRowText[];
				/** `12 races · f1 points`. */
				readonly about: string;
				/** The full table's page and its link's words. */
				readonly href: string;
				readonly more: string;
		  }
		| undefined;
	readonly system: string;
	readonly systems: readonly string[];
	readonly asOf: string;
	readonly uncertaintyName: string;
	readonly provisional: boolean;
	/** Numbers as text, as the bot shows them (rating-scale.ts). */
	readonly rows: readonly {
		readonly rank: number;
		readonly player: string;
		readonly provisional: boolean;
		readonly rating: string;
		readonly uncertainty: string;
		readonly races: number;
		/** The player's page. */
		readonly href: string;
	}[];
	readonly races: readonly {
		readonly id: string;
		readonly name?: string | undefined;
		readonly date?: string | undefined;
		readonly racers: number;
		readonly podium: readonly { readonly position: number; readonly player: string }[];
		/** The race's page. */
		readonly href: string;
	}[];
	readonly csv: string;
	readonly json: string;
	/** The forecast's page. */
	readonly forecast: string;
}

const page = (shell: PageShell, body: string): string =>
	eta.render('@layout', { title: shell.title, noindex: shell.noindex === true, body });

export const homeHtml = (data: HomePage): string => page({ title: 'Leagues · pitwall' }, eta.render('@home', data));

export const leagueHtml = (shell: PageShell, data: LeaguePage): string => page(shell, eta.render('@league', data));

export interface ChampionshipPageData {
	readonly league: string;
	readonly back: string;
	readonly json: string;
	readonly season?: string | undefined;
	readonly asOf: string;
	readonly about?: string | undefined;
	readonly seasons: readonly { readonly name: string; readonly href: string; readonly current: boolean }[];
	/** Why there is no table (then nothing below is shown). */
	readonly reason?: string | undefined;
	readonly rows: readonly ChampionshipRowText[];
	/** Some driver lost points to a deduction (else no Deducted column). */
	readonly deductions: boolean;
	readonly teams: readonly {
		readonly place: string;
		readonly team: string;
		readonly points: string;
		readonly wins: number;
		readonly podiums: number;
	}[];
}

export const championshipHtml = (shell: PageShell, data: ChampionshipPageData): string =>
	page(shell, eta.render('@championship', data));

export interface PlayerPage {
	readonly name: string;
	readonly league: string;
	/** The league's page. */
	readonly back: string;
	readonly systems: readonly {
		readonly system: string;
		readonly row:
			| {
					readonly rank: number;
					readonly rating: string;
					readonly uncertainty: string;
					readonly races: number;
					readonly provisional: boolean;
			  }
			| undefined;
	}[];
	readonly system: string;
	readonly chart: ChartSvg | undefined;
	/** As the service gives them (dates and places need no formatting), with the race's page and the why as text. */
	readonly races: readonly (Omit<WebPlayer['races'][number], 'why'> & {
		readonly href: string;
		/** The shown change (`+12.3`), when rated. */
		readonly change?: string | undefined;
		/** `/rating`'s lines explaining the change, when rated. */
		readonly why?: readonly string[] | undefined;
	})[];
}

export const playerHtml = (shell: PageShell, data: PlayerPage): string => page(shell, eta.render('@player', data));

export interface RacePageData {
	readonly league: string;
	readonly back: string;
	readonly json: string;
	readonly id: string;
	readonly name?: string | undefined;
	readonly date?: string | undefined;
	readonly system: string;
	/** Some racer has a time (else no Time column: a phone's width is for the ratings). */
	readonly timed: boolean;
	readonly voided: boolean;
	readonly unrated?: string | undefined;
	readonly history: readonly { readonly kind: string; readonly on: string; readonly reason: string }[];
	/** Numbers as text, as `/race show` shows them. */
	readonly results: readonly {
		/** `1`, or the status (DNF, DNS, DSQ). */
		readonly place: string;
		readonly player: string;
		readonly href: string;
		readonly time: string;
		readonly rating?:
			| { readonly expected: string; readonly before: string; readonly after: string; readonly change: string }
			| undefined;
		/** Why there are no numbers (`not rated`). */
		readonly unrated: string;
	}[];
	/** `/race show`'s line per rated racer and `/rating`'s explanation of it. */
	readonly explained: readonly {
		readonly player: string;
		readonly href: string;
		readonly summary: string;
		readonly lines: readonly string[];
	}[];
}

export const raceHtml = (shell: PageShell, data: RacePageData): string => page(shell, eta.render('@race', data));

export interface ForecastPageData {
	readonly league: string;
	readonly back: string;
	readonly json: string;
	readonly system: string;
	readonly asOf: string;
	readonly year?: number | undefined;
	/** Why there is no forecast (then nothing below is shown). */
	readonly reason?: string | undefined;
	readonly how: string;
	readonly notes: readonly string[];
	readonly rows: readonly {
		readonly n: number;
		readonly player: string;
		readonly href: string;
		readonly points: string;
		readonly title: string;
		readonly top3: string;
		readonly expected: string;
	}[];
}

export const forecastHtml = (shell: PageShell, data: ForecastPageData): string =>
	page(shell, eta.render('@forecast', data));

export const missingHtml = (): string => page({ title: 'No such league · pitwall' }, eta.render('@missing', {}));
