package dev.spanprofile.view;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;

import dev.spanprofile.render.BreakdownDifference;

/**
 * What the examined side of a comparison spends more on per request, as its JSON carries
 * it: the sentence, and every term of it (they add up to the difference of the mean
 * durations).
 *
 * @param summary the sentence
 * @param moreMillisPerRequest how much longer an examined request takes on average
 * (negative: shorter)
 * @param terms every part's difference per request, largest first
 */
public record BreakdownDifferenceJson(String summary, double moreMillisPerRequest, List<Term> terms) {

	static BreakdownDifferenceJson of(BreakdownDifference difference) {
		return new BreakdownDifferenceJson(difference.sentence(), millis(difference.moreNanosPerRequest()),
				difference.terms().stream().map(Term::of).toList());
	}

	private static double millis(double nanos) {
		return Math.round(nanos / 1_000.0) / 1_000.0;
	}

	/**
	 * One part's difference.
	 *
	 * @param part {@code CPU}, {@code round trips}, a wait category, {@code waiting for a
	 * core}, {@code short waits}, {@code unaccounted}, {@code counted twice (threads at
	 * once)}
	 * @param moreMillisPerRequest the examined side's time there per request less the
	 * other's
	 * @param moreCountPerRequest for round trips, how many more a request; else left out
	 * @param peer for round trips, the peer; else left out
	 * @param where the round trips' caller, or where the most CPU more went, when known;
	 * else left out
	 */
	public record Term(String part, double moreMillisPerRequest,
			@JsonInclude(Include.NON_NULL) Double moreCountPerRequest, @JsonInclude(Include.NON_NULL) String peer,
			@JsonInclude(Include.NON_NULL) String where) {

		static Term of(BreakdownDifference.Term term) {
			return new Term(term.part(), millis(term.moreNanosPerRequest()),
					(term.moreCountPerRequest() != null) ? Math.round(10 * term.moreCountPerRequest()) / 10.0 : null,
					term.peer(), term.where());
		}

	}

}
