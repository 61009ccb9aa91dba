/**
 * The results inbox's messages (docs/results-inbox.md): the preview of a received file, posted in the league's
 * results channel with Confirm / Cancel, and the announcement of a race the inbox stored by itself (auto-confirm).
 * Plain data (services/monthly-post-port.ts ChannelMessage), posted by whichever process took the file.
 */
import { customId } from '../../src/discord/command.js';
import { fitEmbed } from '../../src/formats/embed.js';
import { sizeText } from '../../src/services/races/attachment-download.js';
import { INBOX_BUTTONS, type InboxMessages, type InboxPreviewView } from '../../src/services/inbox/inbox-service.js';
import type { ChannelMessage } from '../../src/services/posts/monthly-post-port.js';
import type { RaceView } from '../../src/services/races/race-service.js';
import { clip, esc } from '../shared.js';
import { previewEmbed, raceEmbed } from '../race/format.js';

/** `**results.json** (12.3 KiB)`: the file as the sender named it (escaped, at most 100 characters). */
export const fileText = (file: { readonly name: string; readonly bytes?: number }): string =>
	`**${esc(clip(file.name, 100))}**${file.bytes !== undefined ? ` (${sizeText(file.bytes)})` : ''}`;

/** `2026-03-01 20:14 UTC`. */
const utc = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

export function inboxPreviewMessage(view: InboxPreviewView): ChannelMessage {
	const { preview } = view;
	// A file without a date is dated the day it arrived (not the day of the Confirm, as a paste is).
	const spec = previewEmbed({ ...preview, datedToday: false });
	const dated = preview.datedToday ? ' The file gives no date: the race is dated the day it arrived.' : '';
	return {
		content: `Results inbox of **${esc(preview.league.config.name)}**: ${fileText(view.file)}, received ${utc(view.receivedAt)}.`,
		embeds: [
			fitEmbed({
				...spec,
				footer: `Nothing is stored until an organizer presses Confirm.${dated}`,
			}),
		],
		buttons: [
			{ customId: customId(INBOX_BUTTONS, 'confirm', preview.id), label: 'Confirm', style: 'success' },
			{ customId: customId(INBOX_BUTTONS, 'cancel', preview.id), label: 'Cancel', style: 'secondary' },
		],
	};
}

export function inboxStoredMessage(view: RaceView, file: { readonly name: string }): ChannelMessage {
	return {
		content: `Stored from the results inbox (auto-confirm): ${fileText(file)} is **${view.race.id}** in **${esc(view.league.config.name)}**.`,
		embeds: [fitEmbed(raceEmbed(view))],
	};
}

export const inboxMessages: InboxMessages = { preview: inboxPreviewMessage, stored: inboxStoredMessage };
