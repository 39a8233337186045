package dev.spanprofile.attribution;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.sampling.SampleSink;
import dev.spanprofile.store.InclusiveSamples;
import dev.spanprofile.store.RetentionSettings;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.store.StoreSettings;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A collection that stops the world while a request's thread is already waiting (a socket
 * read to its database) delays it once: the request's waits add up to the time it waited,
 * not that time plus the pause (seen as a name's waits at 101 % of its requests'
 * duration). A thread the pause found running waits for it whole.
 */
class PauseDuringWaitTest {

	private static final String TRACE = "0123456789abcdef0123456789abcdef";

	private static final int[] SOCKET_READ = { 1, 2 };

	private static final int[] GC_PAUSE = { 3 };

	private final SpanProfileStore store = new SpanProfileStore(
			new StoreSettings(100, Long.MAX_VALUE, false, RetentionSettings.recentOnly()));

	private final SampleAttributor attributor = new SampleAttributor(this.store);

	@Test
	void aPauseInsideAWaitJoinedFirstIsNotCountedAgainByTheWait() {
		String waiting = request(1, "000000000000000a");
		String running = request(2, "000000000000000b");
		// The pause (100 to 126 µs) ends before the read that it held (0 to 500 µs):
		// delivered in that order.
		pause(126_000, 26_000);
		this.attributor.sample(SampleKind.WAIT, 1, 500_000, SOCKET_READ, 500_000);
		this.attributor.changePointsCompleteUpTo(1_000_000);
		assertThat(waited(waiting)).isEqualTo(500_000);
		assertThat(waited(running)).isEqualTo(26_000);
	}

	@Test
	void aLongWaitHoldingSeveralPausesCountsNoneOfThemAgain() {
		String waiting = request(1, "000000000000000a");
		// A 2 ms read (0 to 2,000 µs) through three collections of 20 µs each.
		pause(320_000, 20_000);
		pause(920_000, 20_000);
		pause(1_520_000, 20_000);
		this.attributor.sample(SampleKind.WAIT, 1, 2_000_000, SOCKET_READ, 2_000_000);
		this.attributor.changePointsCompleteUpTo(3_000_000);
		assertThat(waited(waiting)).isEqualTo(2_000_000);
	}

	@Test
	void aPauseJoinedAfterTheWaitItFellInCountsOnlyItsPartOutsideIt() {
		String waiting = request(1, "000000000000000a");
		// A park whose end the VM stamped before the pause ended: 0 to 110 µs, the pause
		// 100 to 126 µs, of which 16 µs held the thread beyond its wait.
		this.attributor.sample(SampleKind.WAIT, 1, 110_000, SOCKET_READ, 110_000);
		pause(126_000, 26_000);
		this.attributor.changePointsCompleteUpTo(1_000_000);
		assertThat(waited(waiting)).isEqualTo(126_000);
	}

	@Test
	void waitsAndPausesApartAreEachCountedWhole() {
		String waiting = request(1, "000000000000000a");
		this.attributor.sample(SampleKind.WAIT, 1, 100_000, SOCKET_READ, 90_000);
		pause(150_000, 20_000);
		this.attributor.sample(SampleKind.WAIT, 1, 400_000, SOCKET_READ, 200_000);
		this.attributor.changePointsCompleteUpTo(1_000_000);
		assertThat(waited(waiting)).isEqualTo(90_000 + 20_000 + 200_000);
	}

	/** Thread {@code thread} in a request from time 1 on; its span id. */
	private String request(long thread, String spanId) {
		this.store.spanStarted(TRACE, spanId, null, false, "GET /owners", "SERVER", 1, "worker");
		this.attributor.changed(thread, 1,
				SpanContext.create(TRACE, spanId, TraceFlags.getSampled(), TraceState.getDefault()));
		return spanId;
	}

	private void pause(long end, long nanos) {
		this.attributor.sample(SampleKind.WAIT, SampleSink.EVERY_THREAD_IN_A_SPAN, end, GC_PAUSE, nanos);
	}

	private long waited(String spanId) {
		return InclusiveSamples.of(this.store.find(spanId), SampleKind.WAIT).totalSamples();
	}

}
