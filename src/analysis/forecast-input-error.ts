/** A forecast input the simulation cannot run: the message says which value is wrong. */
export class ForecastInputError extends Error {
	override readonly name = 'ForecastInputError';
}
