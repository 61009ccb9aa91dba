import {
	ButtonStyle,
	ComponentType,
	type APIActionRowComponent,
	type APIButtonComponentWithCustomId,
	type APIEmbed,
	type AttachmentPayload,
} from 'discord.js';
import type { ChannelButton, ChannelMessage } from '../services/posts/monthly-post-port.js';

const BUTTON_STYLES: Readonly<Record<ChannelButton['style'], APIButtonComponentWithCustomId['style']>> = {
	primary: ButtonStyle.Primary,
	secondary: ButtonStyle.Secondary,
	success: ButtonStyle.Success,
	danger: ButtonStyle.Danger,
};

/** A service's plain `ChannelMessage` as the body discord.js sends (channel post, or an interaction answer). */
export function toDiscordBody(message: ChannelMessage): {
	content: string;
	embeds: APIEmbed[];
	files: AttachmentPayload[];
	components?: APIActionRowComponent<APIButtonComponentWithCustomId>[];
} {
	const buttons = message.buttons ?? [];
	return {
		content: message.content,
		// Plain JSON in Discord's embed shape (the composer builds it; Discord validates it).
		embeds: (message.embeds ?? []).map((embed) => embed as APIEmbed),
		files: (message.files ?? []).map((file) => ({ attachment: file.data, name: file.name })),
		...(buttons.length > 0 && {
			components: [
				{
					type: ComponentType.ActionRow,
					components: buttons.map((button) => ({
						type: ComponentType.Button,
						custom_id: button.customId,
						label: button.label,
						style: BUTTON_STYLES[button.style],
					})),
				},
			],
		}),
	};
}
