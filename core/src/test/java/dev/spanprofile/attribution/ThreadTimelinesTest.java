package dev.spanprofile.attribution;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Ended threads' timelines wait for late samples, within a bound: a virtual thread per
 * request must not hold memory outside the store's budget in proportion to the request
 * rate.
 */
class ThreadTimelinesTest {

	@Test
	void endedThreadsBeyondTheBoundAreForgottenFirstEndedFirst() {
		ThreadTimelines timelines = new ThreadTimelines(3);
		for (long thread = 1; thread <= 5; thread++) {
			timelines.of(thread).append(thread * 100, "request " + thread);
			timelines.ended(thread, thread * 100 + 50);
		}
		assertThat(timelines.size()).isEqualTo(3);
		assertThat(timelines.find(1)).isNull();
		assertThat(timelines.find(2)).isNull();
		assertThat(timelines.find(3).stateAt(320)).isEqualTo("request 3");
		assertThat(timelines.find(5).stateAt(520)).isEqualTo("request 5");
	}

	@Test
	void runningThreadsAreNeverForgottenForTheBound() {
		ThreadTimelines timelines = new ThreadTimelines(1);
		timelines.of(1).append(100, "running");
		for (long thread = 2; thread <= 4; thread++) {
			timelines.of(thread).append(thread * 100, "request " + thread);
			timelines.ended(thread, thread * 100 + 50);
		}
		assertThat(timelines.size()).isEqualTo(2);
		assertThat(timelines.find(1).stateAt(120)).isEqualTo("running");
		assertThat(timelines.find(4)).isNotNull();
	}

	@Test
	void withinTheBoundAnEndedThreadWaitsForItsSamplesToBeJoined() {
		ThreadTimelines timelines = new ThreadTimelines(ThreadTimelines.MAX_ENDED_THREADS);
		timelines.of(1).append(100, "request");
		timelines.ended(1, 150);
		timelines.forgetBefore(150);
		assertThat(timelines.find(1)).isNotNull();
		timelines.forgetBefore(151);
		assertThat(timelines.find(1)).isNull();
	}

}
