package dev.spanprofile.test;

/**
 * What a budget that could not decide ({@link InconclusiveProfileException}: too few
 * samples, or a range across the bound) does to its test.
 */
public enum Inconclusive {

	/**
	 * The test is aborted (reported as skipped, with the reason): neither passed nor
	 * failed.
	 */
	SKIP,

	/**
	 * The test fails with the reason: for a CI build that must not stay green on a budget
	 * that never decided.
	 */
	FAIL;

	/**
	 * The system property that overrides {@link ProfiledTest#inconclusive()} for every
	 * test, e.g. {@code -Dspanprofile.test.inconclusive=fail} on CI.
	 */
	static final String PROPERTY = "spanprofile.test.inconclusive";

	/** {@code declared}, unless the system property names another. */
	static Inconclusive resolve(Inconclusive declared) {
		String property = System.getProperty(PROPERTY);
		if (property == null || property.isBlank()) {
			return declared;
		}
		for (Inconclusive mode : values()) {
			if (mode.name().equalsIgnoreCase(property.trim())) {
				return mode;
			}
		}
		throw new IllegalArgumentException("-D" + PROPERTY + "=" + property
				+ " is neither skip nor fail (what a refused budget does to its test)");
	}

}
