package dev.spanprofile.attribution;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ThreadTimelineTest {

	@Test
	void answersTheStateActiveAtEachTime() {
		ThreadTimeline timeline = new ThreadTimeline();
		timeline.append(100, "a");
		timeline.append(200, "b");
		timeline.append(200, "c");
		timeline.append(300, ThreadTimeline.NONE);
		assertThat(timeline.stateAt(50)).isSameAs(ThreadTimeline.NONE);
		assertThat(timeline.stateAt(100)).isEqualTo("a");
		assertThat(timeline.stateAt(199)).isEqualTo("a");
		// Two changes at one instant: the later one wins.
		assertThat(timeline.stateAt(200)).isEqualTo("c");
		assertThat(timeline.stateAt(1000)).isSameAs(ThreadTimeline.NONE);
	}

	@Test
	void forgettingOldPointsKeepsTheirEffect() {
		ThreadTimeline timeline = new ThreadTimeline();
		for (int i = 0; i < 5000; i++) {
			timeline.append(i * 10L, "s" + i);
		}
		timeline.forgetBefore(49_995);
		assertThat(timeline.size()).isEqualTo(0);
		assertThat(timeline.stateAt(60_000)).isEqualTo("s4999");
		timeline.append(70_000, "later");
		assertThat(timeline.stateAt(65_000)).isEqualTo("s4999");
		assertThat(timeline.stateAt(70_000)).isEqualTo("later");
	}

}
