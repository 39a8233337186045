package dev.spanprofile.render.html;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A span's top frames: shares of its samples, or with one or two samples how many. */
class SpanIndexShareTest {

	@Test
	void oneOrTwoSamplesAreCountedNotShared() {
		assertThat(SpanIndexPage.share(1, 1)).isEqualTo("1 sample");
		assertThat(SpanIndexPage.share(1, 2)).isEqualTo("1 sample");
		assertThat(SpanIndexPage.share(2, 2)).isEqualTo("2 samples");
		assertThat(SpanIndexPage.share(3, 4)).isEqualTo("75%");
	}

}
