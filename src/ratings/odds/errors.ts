/** The odds engine's errors (their own module, so that every odds file can throw them without an import cycle). */

/** The engine's error for an invalid field (mixed kinds, non-finite or non-positive parameters). */
export class OddsInputError extends Error {
	override readonly name = 'OddsInputError';
}

/** The quadrature did not reach the accuracy target after the allowed step halvings. */
export class OddsAccuracyError extends Error {
	override readonly name = 'OddsAccuracyError';
}
