package dev.spanprofile.store;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.tracking.UnsampledRequest;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests that tracing did not sample, in {@link FinishedRequests}: their samples are
 * held per request until complete, within a bound on requests and frames, and not for
 * ever for a request that never ends.
 */
class FinishedUnsampledRequestsTest {

	/** The collector's default {@code unsampledMaxAge}. */
	private static final long MAX_AGE_NANOS = TimeUnit.MINUTES.toNanos(10);

	private final FinishedRequests finished = new FinishedRequests(10);

	private final List<String> folded = new ArrayList<>();

	FinishedUnsampledRequestsTest() {
		this.finished.addUnsampledListener(this::fold);
	}

	@Test
	void aRequestIsHandedOnOnceEverySampleUpToItsEndIsJoined() {
		UnsampledRequest request = new UnsampledRequest(1_000);
		this.finished.gatherUnsampled(request).add(SampleKind.CPU, new int[] { 1, 2 }, 1);
		request.end("http get /a", false, 2_000);
		this.finished.completeUnsampledUpTo(1_999, 3_000, MAX_AGE_NANOS);
		assertThat(this.folded).isEmpty();
		this.finished.completeUnsampledUpTo(2_000, 3_000, MAX_AGE_NANOS);
		assertThat(this.folded).containsExactly("http get /a: 1 cpu");
		assertThat(this.finished.unsampledCount()).isZero();
	}

	@Test
	void aRequestFoundAgainAfterItWasFoldedIsNotTakenUpAgain() {
		UnsampledRequest request = new UnsampledRequest(1_000);
		this.finished.gatherUnsampled(request).add(SampleKind.CPU, new int[] { 1, 2 }, 1);
		request.end("http get /a", false, 2_000);
		this.finished.completeUnsampledUpTo(2_000, 3_000, MAX_AGE_NANOS);
		// A thread's point of leaving it, drained by the next collection.
		assertThat(this.finished.gatherUnsampled(request)).isNull();
		this.finished.completeUnsampledUpTo(4_000, 5_000, MAX_AGE_NANOS);
		assertThat(this.folded).containsExactly("http get /a: 1 cpu");
		assertThat(this.finished.unsampledCount()).isZero();
	}

	@Test
	void beyondTheRequestBoundANewRequestKeepsNoSamples() {
		List<UnsampledRequest> requests = new ArrayList<>();
		for (int i = 0; i < FinishedRequests.MAX_UNSAMPLED; i++) {
			UnsampledRequest request = new UnsampledRequest(i);
			requests.add(request);
			assertThat(this.finished.gatherUnsampled(request)).isNotNull();
		}
		assertThat(this.finished.gatherUnsampled(new UnsampledRequest(0))).isNull();
		assertThat(this.finished.gatherUnsampled(requests.get(0))).as("one already held").isNotNull();
		requests.get(0).end("http get /a", false, 10);
		this.finished.completeUnsampledUpTo(10, 10, MAX_AGE_NANOS);
		assertThat(this.finished.gatherUnsampled(new UnsampledRequest(0))).as("room again").isNotNull();
	}

	@Test
	void beyondTheFrameBoundSamplesAreNotKept() {
		UnsampledRequest request = new UnsampledRequest(0);
		UnsampledSamples pending = this.finished.gatherUnsampled(request);
		int[] stack = new int[10_000];
		int stacks = FinishedRequests.MAX_UNSAMPLED_FRAMES / stack.length + 5;
		for (int i = 0; i < stacks; i++) {
			// The same stack each time counts all the same: its frames are held per
			// sample.
			pending.add(SampleKind.CPU, stack, 1);
		}
		request.end("http get /deep", false, 1);
		this.finished.completeUnsampledUpTo(1, 1, MAX_AGE_NANOS);
		assertThat(this.folded)
			.containsExactly("http get /deep: " + (FinishedRequests.MAX_UNSAMPLED_FRAMES / stack.length) + " cpu");
	}

	@Test
	void aRequestThatNeverEndsIsLetGo() {
		UnsampledRequest request = new UnsampledRequest(0);
		this.finished.gatherUnsampled(request).add(SampleKind.CPU, new int[] { 1 }, 1);
		this.finished.completeUnsampledUpTo(Long.MAX_VALUE, MAX_AGE_NANOS, MAX_AGE_NANOS);
		assertThat(this.finished.unsampledCount()).isOne();
		this.finished.completeUnsampledUpTo(Long.MAX_VALUE, MAX_AGE_NANOS + 1, MAX_AGE_NANOS);
		assertThat(this.finished.unsampledCount()).isZero();
		assertThat(this.folded).isEmpty();
	}

	private void fold(UnsampledRequest request, StackTree[] samples) {
		StackTree cpu = samples[SampleKind.CPU.ordinal()];
		this.folded.add(request.name() + ": " + ((cpu != null) ? cpu.totalSamples() : 0) + " cpu");
	}

}
