package dev.spanprofile.actuate;

import org.assertj.core.configuration.Configuration;

/**
 * Keeps AssertJ's failure messages short for the endpoint's JSON. A flame graph's JSON
 * nests one level per frame, and AssertJ formats a nested map once on one line and again
 * on several when the line is too long, at every level: a failed {@code containsEntry} on
 * a deep graph took longer than the whole build may (the build timed out in such a
 * failure). One line at any length, and a few elements per collection, formats it in
 * linear time. Registered through
 * {@code META-INF/services/org.assertj.core.configuration.Configuration}.
 */
public class ShortFailureMessages extends Configuration {

	@Override
	public int maxLengthForSingleLineDescription() {
		return Integer.MAX_VALUE;
	}

	@Override
	public int maxElementsForPrinting() {
		return 20;
	}

}
