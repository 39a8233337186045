package dev.spanprofile.aggregate;

import java.time.Duration;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shared stack trie under a small budget: filled with more distinct stacks than it
 * can hold, it must give up the oldest minutes' stacks, never the ones being filled, and
 * never every name's at once.
 */
class StackBudgetTest {

	private static final long BUDGET = 2L * 1024 * 1024;

	private static final int NAMES = 5;

	private static final int MINUTES = 30;

	private static final int SPANS_PER_MINUTE = 40;

	/** Minutes whose every stack must still be served at the end. */
	private static final int RECENT = 5;

	/**
	 * Frames of its own below a shared handler frame, per span: every span adds this many
	 * trie nodes.
	 */
	private static final int DEPTH = 12;

	@Test
	void aFullTrieStillServesTheLastMinutesOfEveryName() {
		SyntheticSpans spans = new SyntheticSpans(
				new AggregateSettings(Duration.ofHours(1), Duration.ofMinutes(1), 10, 2000, BUDGET));
		int emptyPolls = 0;
		int polls = 0;
		long mostBytes = 0;
		for (int minute = 0; minute < MINUTES; minute++) {
			if (minute > 0) {
				spans.advance(Duration.ofMinutes(1));
			}
			for (int span = 0; span < SPANS_PER_MINUTE; span++) {
				for (int name = 0; name < NAMES; name++) {
					spans.root("GET /n" + name, Duration.ofMillis(20), false, samples(span), stack(name, minute, span));
				}
			}
			mostBytes = Math.max(mostBytes, spans.aggregates.approximateBytes());
			for (int name = 0; name < NAMES; name++) {
				polls++;
				// The minute is still being filled: "the last minute" is its bucket.
				long counted = spans.aggregates.summary("GET /n" + name, Duration.ofMinutes(1)).cpuSamples();
				if (lastMinuteSamples(spans, name) != counted) {
					emptyPolls++;
				}
			}
		}
		assertThat(emptyPolls).as("polls of %d whose last-minute graph lacked samples its statistics count", polls)
			.isZero();
		assertThat(mostBytes).as("most bytes held at the end of a minute").isLessThanOrEqualTo(BUDGET);
		for (int name = 0; name < NAMES; name++) {
			NameSummary summary = spans.aggregates.summary("GET /n" + name, Duration.ofHours(1));
			assertThat(summary.count()).as("statistics of every span").isEqualTo((long) MINUTES * SPANS_PER_MINUTE);
			StackTree recent = spans.aggregates
				.profile("GET /n" + name, Duration.ofMinutes(RECENT), SampleKind.CPU, 0, Long.MAX_VALUE)
				.samples();
			for (int minute = MINUTES - RECENT; minute < MINUTES; minute++) {
				for (int span = 0; span < SPANS_PER_MINUTE; span++) {
					assertThat(spans.samplesThrough(recent, leaf(name, minute, span)))
						.as("name %d, minute %d, span %d: its own stack", name, minute, span)
						.isEqualTo(samples(span));
				}
			}
			StackTree hour = spans.aggregates
				.profile("GET /n" + name, Duration.ofHours(1), SampleKind.CPU, 0, Long.MAX_VALUE)
				.samples();
			assertThat(spans.samplesThrough(hour, leaf(name, 0, 0))).as("the oldest minute's stacks give way").isZero();
		}
		assertThat(spans.aggregates.approximateBytes()).isLessThanOrEqualTo(BUDGET);
	}

	@Test
	void stacksThatLeftTheWindowMakeRoomForNewOnesBeforeAnyInItIsDropped() {
		// Five minutes of stacks fit the trie; thirty do not, but only five are ever in
		// the window.
		Duration window = Duration.ofMinutes(RECENT);
		SyntheticSpans spans = new SyntheticSpans(
				new AggregateSettings(window, Duration.ofMinutes(1), 10, 2000, BUDGET));
		int incomplete = 0;
		for (int minute = 0; minute < MINUTES; minute++) {
			if (minute > 0) {
				spans.advance(Duration.ofMinutes(1));
			}
			for (int span = 0; span < SPANS_PER_MINUTE; span++) {
				for (int name = 0; name < NAMES; name++) {
					spans.root("GET /n" + name, Duration.ofMillis(20), false, samples(span), stack(name, minute, span));
				}
			}
			assertThat(spans.aggregates.approximateBytes()).isLessThanOrEqualTo(BUDGET);
			for (int name = 0; name < NAMES; name++) {
				StackTree profile = spans.aggregates.profile("GET /n" + name, window, SampleKind.CPU, 0, Long.MAX_VALUE)
					.samples();
				for (int inWindow = Math.max(0, minute - RECENT + 1); inWindow <= minute; inWindow++) {
					for (int span = 0; span < SPANS_PER_MINUTE; span++) {
						if (spans.samplesThrough(profile, leaf(name, inWindow, span)) != samples(span)) {
							incomplete++;
						}
					}
				}
			}
		}
		assertThat(incomplete).as("stacks of the window not served as they were sampled").isZero();
	}

	private static long lastMinuteSamples(SyntheticSpans spans, int name) {
		return spans.aggregates.profile("GET /n" + name, Duration.ofMinutes(1), SampleKind.CPU, 0, Long.MAX_VALUE)
			.samples()
			.totalSamples();
	}

	private static int samples(int span) {
		return 1 + span % 3;
	}

	private static String[] stack(int name, int minute, int span) {
		String[] stack = new String[DEPTH + 1];
		stack[0] = "a.Web.handle";
		for (int d = 1; d < DEPTH; d++) {
			stack[d] = "a.N" + name + "m" + minute + "s" + span + ".d" + d;
		}
		stack[DEPTH] = leaf(name, minute, span);
		return stack;
	}

	private static String leaf(int name, int minute, int span) {
		return "a.N" + name + "m" + minute + "s" + span + ".leaf";
	}

}
