import type { RepliableInteraction } from 'discord.js';

/**
 * A public defer for work that is slow only on a big league (`/league config` with new parameters
 * replays 15,000 races; on a small league it answers at once). A refusal on bad input is immediate, so it stays the
 * ephemeral reply itself; work still running after `ms` is acknowledged with a public "thinking…" well inside
 * Discord's 3 s, and its answer then edits that. The router treats such an interaction as publicly deferred (its
 * error goes to the user only).
 */

/** Interactions deferred by deferWhenSlow (the router's error path reads it). */
export const publiclyDeferred = new WeakSet<RepliableInteraction>();

/** Past this, the work is acknowledged: half of Discord's 3 s, for event-loop blocks and the defer's own round trip. */
export const SLOW_MS = 1_500;

export async function deferWhenSlow<T>(interaction: RepliableInteraction, work: Promise<T>, ms = SLOW_MS): Promise<T> {
	void work.catch(() => undefined); // observed here too: a failing defer must not leave its rejection unhandled
	const slow = Symbol('slow');
	let timer: NodeJS.Timeout | undefined;
	const late = new Promise<typeof slow>((resolve) => (timer = setTimeout(resolve, ms, slow)));
	try {
		const first = await Promise.race([work, late]);
		if (first !== slow) return first;
	} finally {
		clearTimeout(timer);
	}
	if (!interaction.deferred && !interaction.replied) {
		await interaction.deferReply();
		publiclyDeferred.add(interaction);
	}
	return work;
}
