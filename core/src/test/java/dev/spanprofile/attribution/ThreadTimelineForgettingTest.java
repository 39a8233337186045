package dev.spanprofile.attribution;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Samples can arrive late: after failed collection cycles, the first good one delivers
 * samples older than the change points already forgotten. Those must come out unknown,
 * never as whatever ran at the forgetting horizon.
 */
class ThreadTimelineForgettingTest {

	@Test
	void aSampleOlderThanTheForgottenPointsIsUnknown() {
		ThreadTimeline timeline = new ThreadTimeline();
		timeline.append(100, "a");
		timeline.append(200, ThreadTimeline.NONE);
		timeline.append(300, "b");
		timeline.forgetBefore(400);
		assertThat(timeline.size()).isZero();
		assertThat(timeline.stateAt(150)).as("a sample taken while a ran").isSameAs(ThreadTimeline.UNKNOWN);
		assertThat(timeline.stateAt(299)).isSameAs(ThreadTimeline.UNKNOWN);
		assertThat(timeline.stateAt(300)).as("from the last forgotten point on, b is known").isEqualTo("b");
		assertThat(timeline.stateAt(450)).isEqualTo("b");
	}

	@Test
	void beforeAnythingWasForgottenAThreadRanNothing() {
		ThreadTimeline timeline = new ThreadTimeline();
		timeline.append(100, "a");
		assertThat(timeline.stateAt(50)).isSameAs(ThreadTimeline.NONE);
	}

}
