package dev.spanprofile.render.html;

import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.profile.WaitKind;
import dev.spanprofile.render.TimeBreakdown;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The page's breakdown names the kernel's parts, with their own colours, where they were
 * measured, and says what unaccounted then holds.
 */
class TimeBreakdownHtmlTest {

	private static final long MS = 1_000_000L;

	@Test
	void waitingForACoreAndShortWaitsAreTheirOwnParts() {
		FrameTable frames = new FrameTable();
		StackTree waits = new StackTree();
		int leaf = frames.intern(WaitKind.SOCKET_READ.frameName("db:5432"), FrameKind.WAIT);
		waits.add(new int[] { leaf }, 30 * MS);
		String html = TimeBreakdownHtml
			.render(TimeBreakdown.of(40 * MS, 10 * MS, true, 0, 6 * MS, 24 * MS, waits, frames), false);
		assertThat(html).contains("tb-core-wait", "<b>waiting for a core</b>", "tb-short-waits", "<b>short waits</b>",
				"6.0 ms more is inside the recorded waits", "the request&#39;s threads were not in it");

		String unmeasured = TimeBreakdownHtml.render(TimeBreakdown.of(40 * MS, 10 * MS, 0, waits, frames), false);
		assertThat(unmeasured).doesNotContain("tb-core-wait", "tb-short-waits")
			.contains("spanprofile.exact-cpu-time measures the first two on Linux");
	}

	@Test
	void manyRequestsSayWhatTheirUnaccountedTimeHoldsWhereSomeHadNoKernelFigures() {
		// The default: CPU from samples, the wait for a core read for the traced
		// requests only.
		String mixed = TimeBreakdownHtml.render(TimeBreakdown.ofRequests(10, 1_000 * MS)
			.cpu(100 * MS, false)
			.kernel(4, 40 * MS, 0, 0)
			.rest(200 * MS, 0)
			.build(), false);
		assertThat(mixed).contains("for 6 of the 10 requests the kernel&#39;s figures were not read",
				"requests tracing did not sample", "their waiting for a core", "the CPU estimate&#39;s error",
				"for the others, their short waits, the CPU estimate&#39;s error and the time none of their threads")
			.doesNotContain("only the time none");

		String mixedExact = TimeBreakdownHtml.render(TimeBreakdown.ofRequests(10, 1_000 * MS)
			.cpu(100 * MS, true)
			.kernel(4, 40 * MS, 0, 10 * MS)
			.rest(200 * MS, 0)
			.build(), false);
		assertThat(mixedExact).contains("for the others, only the time none of their threads was in them");

		String none = TimeBreakdownHtml
			.render(TimeBreakdown.ofRequests(10, 1_000 * MS).cpu(100 * MS, false).rest(200 * MS, 0).build(), false);
		assertThat(none).contains("for all 10 requests the kernel&#39;s figures were not read")
			.doesNotContain("for the others");

		String all = TimeBreakdownHtml.render(TimeBreakdown.ofRequests(10, 1_000 * MS)
			.cpu(100 * MS, true)
			.kernel(10, 40 * MS, 0, 10 * MS)
			.rest(200 * MS, 0)
			.build(), false);
		assertThat(all).doesNotContain("figures were not read");
	}

}
