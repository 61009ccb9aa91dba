/** A forecast input the simulation cannot run (issue 10 §4): the message says which value is wrong. */
export class ForecastInputError extends Error {
	override readonly name = 'ForecastInputError';
}
