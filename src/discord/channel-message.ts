import type { APIEmbed, AttachmentPayload } from 'discord.js';
import type { ChannelMessage } from '../services/monthly-post-port.js';

/** A service's plain `ChannelMessage` as the body discord.js sends (channel post, or an interaction answer). */
export function toDiscordBody(message: ChannelMessage): {
	content: string;
	embeds: APIEmbed[];
	files: AttachmentPayload[];
} {
	return {
		content: message.content,
		// Plain JSON in Discord's embed shape (the composer builds it; Discord validates it).
		embeds: (message.embeds ?? []).map((embed) => embed as APIEmbed),
		files: (message.files ?? []).map((file) => ({ attachment: file.data, name: file.name })),
	};
}
