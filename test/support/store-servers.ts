/**
 * What test/setup/store-servers.ts hands to the tests (vitest `provide`/`inject`): for each server, its URL, or
 * why it could not be started (the PostgreSQL/Redis cases then skip with that reason, never pass silently).
 */
export type ServerStatus = { readonly url: string } | { readonly unavailable: string };

export interface StoreServers {
	readonly postgresql: ServerStatus;
	readonly redis: ServerStatus;
}

declare module 'vitest' {
	export interface ProvidedContext {
		storeServers: StoreServers;
	}
}
