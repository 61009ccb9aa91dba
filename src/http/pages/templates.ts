/**
 * The league web pages' HTML (docs/web.md), rendered on the server with Eta: every `<%= %>` is HTML-escaped by Eta
 * (autoEscape), so a player named `<script>` shows as text; nothing here escapes by hand. The templates are strings
 * registered at load (no file reads, the same under tsx and built). Plain HTML and a little CSS: no JavaScript, one
 * column that fits a phone, tables that scroll sideways when wider than the screen.
 */
import { Eta } from 'eta';
import type { WebPlayer } from '../../services/league-web-service.js';

const eta = new Eta({ autoEscape: true, autoTrim: false, useWith: false, cache: true });

const STYLE = `
body{font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:48rem;padding:0 .75rem 2rem;color:#1b1b1f;background:#fff}
@media (prefers-color-scheme:dark){body{color:#e6e6ea;background:#131316}a{color:#8ab4ff}th,td{border-color:#333}}
h1{font-size:1.5rem;margin:1rem 0 .25rem}h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
.meta{color:#777;font-size:.9rem;margin:.25rem 0 1rem}
.scroll{overflow-x:auto}table{border-collapse:collapse;width:100%}
th,td{padding:.35rem .5rem;border-bottom:1px solid #ddd;text-align:left;white-space:nowrap}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
nav a,nav strong{margin-right:.75rem}ul{padding-left:1.2rem}
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
<p class="meta"><%= it.system %> · as of <%= it.asOf %> · <%= it.rows.length %> players<% if (it.provisional) { %> · † provisional<% } %></p>
<nav><% for (const s of it.systems) { %><% if (s === it.system) { %><strong><%= s %></strong> <% } else { %><a href="?system=<%= encodeURIComponent(s) %>"><%= s %></a> <% } %><% } %></nav>
<h2>Leaderboard</h2>
<% if (it.rows.length === 0) { %><p>No standings yet: no race has been rated.</p>
<% } else { %><div class="scroll"><table>
<thead><tr><th class="n">#</th><th>Player</th><th class="n">Rating</th><th class="n"><%= it.uncertaintyName %></th><th class="n">Races</th></tr></thead>
<tbody>
<% for (const r of it.rows) { %><tr><td class="n"><%= r.rank %></td><td><a href="<%= r.href %>"><%= r.player %></a><%= r.provisional ? '†' : '' %></td><td class="n"><%= r.rating %></td><td class="n"><%= r.uncertainty %></td><td class="n"><%= r.races %></td></tr>
<% } %></tbody>
</table></div>
<% } %><p class="meta"><a href="<%= it.csv %>">Download CSV</a> · <a href="<%= it.json %>">JSON</a></p>
<h2>Last races</h2>
<% if (it.races.length === 0) { %><p>No race yet.</p>
<% } else { %><ul>
<% for (const race of it.races) { %><li><strong><%= race.id %></strong><% if (race.name) { %> <%= race.name %><% } %><% if (race.date) { %> · <%= race.date %><% } %> · <%= race.racers %> racers<% if (race.podium.length > 0) { %>: <%= race.podium.map((p) => p.position + '. ' + p.player).join(', ') %><% } %></li>
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
<h2>Races</h2>
<% if (it.races.length === 0) { %><p>No race yet.</p>
<% } else { %><ul>
<% for (const race of it.races) { %><li><strong><%= race.id %></strong><% if (race.name) { %> <%= race.name %><% } %><% if (race.date) { %> · <%= race.date %><% } %> · <%= race.status === 'finished' ? race.position + ' of ' + race.racers : race.status + ' (' + race.racers + ' racers)' %></li>
<% } %></ul>
<% } %>`,
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

export interface LeaguePage {
	readonly name: string;
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
	}[];
	readonly csv: string;
	readonly json: string;
}

const page = (shell: PageShell, body: string): string =>
	eta.render('@layout', { title: shell.title, noindex: shell.noindex === true, body });

export const homeHtml = (data: HomePage): string => page({ title: 'Leagues · pitwall' }, eta.render('@home', data));

export const leagueHtml = (shell: PageShell, data: LeaguePage): string => page(shell, eta.render('@league', data));

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
	/** As the service gives them (dates and places need no formatting). */
	readonly races: WebPlayer['races'];
}

export const playerHtml = (shell: PageShell, data: PlayerPage): string => page(shell, eta.render('@player', data));

export const missingHtml = (): string => page({ title: 'No such league · pitwall' }, eta.render('@missing', {}));
