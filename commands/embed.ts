/**
 * An embed for a reply: the spec fitted to Discord's limits (src/formats/embed.ts), built with discord.js's
 * EmbedBuilder (from @discordjs/builders), whose setters validate every part again, so an embed Discord would refuse
 * fails here, in tests, rather than as a missing answer.
 */
import { EmbedBuilder } from 'discord.js';
import { fitEmbed, type EmbedSpec } from '../src/formats/embed.js';

export function embedOf(spec: EmbedSpec): EmbedBuilder {
	const data = fitEmbed(spec);
	const builder = new EmbedBuilder().setTitle(data.title).setColor(data.color);
	if (data.description !== undefined) builder.setDescription(data.description);
	if (data.fields !== undefined) builder.addFields(data.fields);
	if (data.image !== undefined) builder.setImage(data.image.url);
	if (data.footer !== undefined) builder.setFooter({ text: data.footer.text });
	if (data.author !== undefined) builder.setAuthor({ name: data.author.name });
	if (data.url !== undefined) builder.setURL(data.url);
	return builder;
}
