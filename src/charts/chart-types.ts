/**
 * What the chart renderers draw: plain data, computed by the services (src/services/ratings/chart-data.ts) from the league's
 * standings as of a day. The renderers know nothing of rating systems: bands, provisional stretches and titles
 * arrive ready to draw.
 */

/** Discord shows an embedded image at about 800×400; both themes are drawn on an opaque background. */
export type ChartTheme = 'dark' | 'light';

/** Names every chart's title: "<league> · <system> · <asOf>". */
export interface ChartTitle {
	readonly league: string;
	/** System id, e.g. `glicko`. */
	readonly system: string;
	/** `YYYY-MM-DD`: the day the numbers are as of. */
	readonly asOf: string;
	/** What the chart is, written before the league in the title (e.g. `Monthly ranking, October 2026`). */
	readonly heading?: string | undefined;
}

/** One point of a player's rating history. */
export interface RatingPoint {
	/** `YYYY-MM-DD`. Points arrive sorted by day; one day may hold several points (two races on one day). */
	readonly day: string;
	readonly rating: number;
	/** The uncertainty band at this point (e.g. rating ± 2 RD); absent where the system has no band. */
	readonly low?: number | undefined;
	readonly high?: number | undefined;
	/** The rating is provisional here (drawn differently, e.g. dashed). */
	readonly provisional: boolean;
	/** Set on a point right after a race: the race id (a marker is drawn); absent on daily (growth) points. */
	readonly race?: string | undefined;
	/** The race's ordinal in the league: the x of the point when the chart's axis is `race` (undated races). */
	readonly index?: number | undefined;
	/** The rating started over here (a yearly reset): no line or band joins it to the point before. */
	readonly restart?: boolean | undefined;
}

export interface RatingSeries {
	readonly player: string;
	readonly points: readonly RatingPoint[];
}

export interface RatingHistoryChart extends ChartTitle {
	/** One to four players. */
	readonly series: readonly RatingSeries[];
	/** Legend text for the band, e.g. `±2 RD`; absent when no series has a band. */
	readonly bandLabel?: string | undefined;
	/** `date` (default): x is the day. `race`: x is the race ordinal (`index`), for leagues whose races are undated. */
	readonly axis?: 'date' | 'race' | undefined;
}

export interface LeaderboardChartRow {
	readonly rank: number;
	readonly name: string;
	readonly rating: number;
	/** Uncertainty whisker ends; absent where the system has none. */
	readonly low?: number | undefined;
	readonly high?: number | undefined;
	readonly provisional: boolean;
	/**
	 * Places moved since an earlier ranking (the monthly post's: since the last post), up positive; `'new'` for a
	 * player not ranked then; absent: no earlier ranking is shown.
	 */
	readonly moved?: number | 'new' | undefined;
}

export interface LeaderboardChart extends ChartTitle {
	/** Top N (N ≤ 25), best first. */
	readonly rows: readonly LeaderboardChartRow[];
	readonly whiskerLabel?: string | undefined;
}

export interface OddsChartRow {
	readonly name: string;
	readonly pWin: number;
	/** Absent where the field has 3 racers or fewer. */
	readonly pTop3?: number | undefined;
}

export interface OddsChart extends ChartTitle {
	/** Sorted by P(win), descending; at most 50. */
	readonly rows: readonly OddsChartRow[];
	/** For a field of two: P(first ahead of second). */
	readonly headToHead?: { readonly first: string; readonly second: string; readonly pFirst: number } | undefined;
}

/** One bin of a reliability chart: predictions of P(win) in one decile, against what happened. */
export interface ReliabilityChartPoint {
	/** Mean predicted P(win) of the bin, 0..1. */
	readonly predicted: number;
	/** Observed win frequency of the bin, 0..1. */
	readonly observed: number;
	/** Predictions in the bin (the point's size). */
	readonly count: number;
	/** Standard error of `observed` (an error bar of ±1 SE); absent: no bar. */
	readonly standardError?: number | undefined;
}

export interface ReliabilityChartSeries {
	/** System id, e.g. `endure`. */
	readonly system: string;
	/** Non-empty bins, by predicted P. */
	readonly points: readonly ReliabilityChartPoint[];
}

/** Predicted P(win) against observed win frequency by decile, one series per system (one to four). */
export interface ReliabilityChart extends ChartTitle {
	readonly series: readonly ReliabilityChartSeries[];
}

export interface ForecastChartRow {
	readonly name: string;
	readonly pTitle: number;
}

/** The championship forecast: P(title) per contender as horizontal bars. */
export interface ForecastChart extends ChartTitle {
	/** Sorted by P(title), descending; the chart draws the first MAX_FORECAST_BARS. */
	readonly rows: readonly ForecastChartRow[];
	/** E.g. `100,000 seasons · 5 races left · f1 points`. */
	readonly subtitle: string;
}

/**
 * More lines than this cannot be told apart at 800×400 (the palette has five colours; the sixth repeats dashed).
 * Here, not in championship-config.ts, so that the services read it without loading Chart.js and canvas.
 */
export const MAX_CHAMPIONSHIP_LINES = 6;

/** A season's points as they added up (championship-config.ts): one line per leading driver. */
export interface ChampionshipChart extends ChartTitle {
	/** The season's races in order (their x labels). */
	readonly rounds: readonly string[];
	/** Best first; each with its points total after each race (as many as `rounds`). */
	readonly series: readonly { readonly name: string; readonly points: readonly number[] }[];
	readonly subtitle?: string | undefined;
}

/** One renderer for the life of the process (chartjs-node-canvas leaks when re-created per chart). */
export interface ChartRenderer {
	ratingHistory(chart: RatingHistoryChart, theme?: ChartTheme): Promise<Buffer>;
	leaderboard(chart: LeaderboardChart, theme?: ChartTheme): Promise<Buffer>;
	odds(chart: OddsChart, theme?: ChartTheme): Promise<Buffer>;
	/** `/league stats`. */
	reliability(chart: ReliabilityChart, theme?: ChartTheme): Promise<Buffer>;
	forecast(chart: ForecastChart, theme?: ChartTheme): Promise<Buffer>;
	/** The season-end post's points race (championship-config.ts). */
	championship(chart: ChampionshipChart, theme?: ChartTheme): Promise<Buffer>;
	/** Free the worker or canvas resources (tests, shutdown). */
	close(): Promise<void>;
}
