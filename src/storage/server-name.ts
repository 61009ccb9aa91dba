/** `host:port/database` of a server URL, for messages: never the user name or the password. */
export function serverName(url: string): string {
	try {
		const parsed = new URL(url);
		return `${parsed.hostname}${parsed.port === '' ? '' : `:${parsed.port}`}${parsed.pathname === '/' ? '' : parsed.pathname}`;
	} catch {
		return 'an unparsable URL';
	}
}
