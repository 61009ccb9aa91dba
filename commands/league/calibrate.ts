/**
 * `/league calibrate [system] [league]` (organizers): one system's parameters calibrated on the league's
 * own history (league-calibrate-service.ts), shown to the organizer as current → proposed with the gain in winner
 * log-likelihood, and applied with Confirm (calibrate-buttons.ts). Deferred ephemerally by the router: it is slow.
 */
import type { ChatInputCommandInteraction } from 'discord.js';
import type { CommandContext } from '../../src/discord/command.js';
import { answer } from '../../src/discord/reply.js';
import {
	NOISE_STANDARD_ERRORS,
	type CalibrationProposal,
} from '../../src/services/calibration/league-calibrate-service.js';
import { confirmCancelRow } from '../confirm-buttons.js';
import { actorOf, clip, esc, minus, servicesOf } from '../shared.js';
import { plural } from '../../src/formats/plural.js';

/** A searched quantity as the CLI prints it: 4 significant digits, or "∞ (off)" for a half-life without forgetting. */
export function showQuantity(value: number | undefined): string {
	if (value === undefined) return '—';
	if (value === Infinity) return '∞ (off)';
	return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(4)));
}

/** `initialRd 350 → 115.4, c 12.82 → 1.901`: each searched quantity, current → proposed. */
export function changesText(p: CalibrationProposal): string {
	const { dimensions, defaultPoint, bestPoint } = p.result;
	return dimensions
		.map((d) => `${d.name} ${showQuantity(defaultPoint[d.name])} → ${showQuantity(bestPoint[d.name])}`)
		.join(', ');
}

/** `glicko.initialRd=115.4 glicko.c=1.901`: what Confirm sets, in the form `/league config parameters:` takes. */
export function parametersText(p: CalibrationProposal): string {
	return Object.entries(p.proposed)
		.map(([name, value]) => `${p.system}.${name}=${String(value)}`)
		.join(' ');
}

/** `−402.95 → −380.12 (gain +22.83 nats, +0.0779 a race)` */
function likelihoodText(p: CalibrationProposal): string {
	const r = p.result;
	const perRace = r.races > 0 ? `, +${(r.gain / r.races).toFixed(4)} a race` : '';
	return `${minus(r.defaultLogLikelihood.toFixed(2))} → ${minus(r.bestLogLikelihood.toFixed(2))} (gain +${r.gain.toFixed(2)} nats${perRace})`;
}

/**
 * `The gain, +0.12 nats, is within the noise of 13 races (standard error 0.85 nats: a real gain would be over 1.70):
 * nothing is proposed; the current settings stay.`
 */
function noiseText(p: CalibrationProposal): string {
	const r = p.result;
	const error = r.gainStandardError;
	const bound = Number.isFinite(error)
		? `standard error ${error.toFixed(2)} nats: a real gain would be over ${(NOISE_STANDARD_ERRORS * error).toFixed(2)}`
		: 'too few races to measure it';
	return `The gain, +${r.gain.toFixed(2)} nats, is within the noise of ${plural(r.races, 'race')} (${bound}): nothing is proposed; the current settings stay. Calibrate again when the league has more races.`;
}

export function proposalText(p: CalibrationProposal): string {
	const r = p.result;
	const league = esc(p.league.config.name);
	const head = `Calibration of \`${p.system}\` on **${league}**: ${plural(r.races, 'race')} scored, ${plural(r.evaluations, 'backtest')} (cap ${r.maxEvaluations}).`;
	const notes = r.notes.map((note) => `Note: ${esc(note)}`);
	if (r.dimensions.length === 0) {
		return [head, `\`${p.system}\` has no parameter to calibrate: nothing to change.`, ...notes].join('\n');
	}
	const width = Math.max(21, ...r.dimensions.map((d) => d.name.length));
	const table = [
		'```',
		`${'parameter'.padEnd(width)}  current → proposed`,
		...r.dimensions.map(
			(d) => `${d.name.padEnd(width)}  ${showQuantity(r.defaultPoint[d.name])} → ${showQuantity(r.bestPoint[d.name])}`,
		),
		`${'winner log-likelihood'.padEnd(width)}  ${likelihoodText(p)}`,
		'```',
	];
	const verdict = p.withinNoise
		? noiseText(p)
		: p.better
			? `Confirm sets \`${parametersText(p)}\` (one settings change, as /league config parameters: would) and replays every rating. This proposal lasts 15 minutes.`
			: `The current settings are as good as anything found (winner log-likelihood ${minus(r.defaultLogLikelihood.toFixed(2))}): nothing to change.`;
	return clip([head, ...table, verdict, ...notes].join('\n'));
}

export async function leagueCalibrate(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
	const proposal = await servicesOf(ctx).calibrate.calibrate(actorOf(interaction), {
		league: interaction.options.getString('league') ?? undefined,
		system: interaction.options.getString('system') ?? undefined,
	});
	const components = proposal.better ? [confirmCancelRow('calibrate', proposal.id)] : [];
	await answer(interaction, { content: proposalText(proposal), components }, { ephemeral: true });
}
