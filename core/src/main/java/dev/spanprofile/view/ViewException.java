package dev.spanprofile.view;

/**
 * A query that has no view, with a message for the person who asked. The {@link Problem}
 * says whose fault it is, which a web adapter turns into a status code.
 */
public final class ViewException extends RuntimeException {

	private final Problem problem;

	private ViewException(Problem problem, String message) {
		super(message, null, false, false);
		this.problem = problem;
	}

	/**
	 * The query is malformed: a parameter out of range, an unknown format or event, an id
	 * that is no id.
	 */
	public static ViewException badRequest(String message) {
		return new ViewException(Problem.BAD_REQUEST, message);
	}

	/** The query is well formed but names something that is not stored. */
	public static ViewException notFound(String message) {
		return new ViewException(Problem.NOT_FOUND, message);
	}

	public Problem problem() {
		return this.problem;
	}

	/** Why there is no view. */
	public enum Problem {

		/** The query itself is wrong; asking again the same way will not help. */
		BAD_REQUEST,

		/** Nothing matches the query now (never stored, evicted, or not sampled). */
		NOT_FOUND

	}

}
