package dev.spanprofile.sampling;

import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import dev.spanprofile.tracking.MonotonicEpoch;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;

/**
 * Maps Flight Recorder's instants onto the {@code System.nanoTime()} clock that change
 * points are stamped with, through a reference the recording itself carries.
 * <p>
 * Flight Recorder stamps events with ticks and turns them into instants with the (wall
 * clock, ticks) pairing of the chunk's start; a chunk lives for minutes. A pairing of the
 * two clocks read when an event is delivered therefore differs from the one it was
 * stamped with by any step of the wall clock since the chunk began (NTP, a resumed
 * virtual machine) and by the drift of the ticks' assumed frequency, and samples go to
 * whatever span their thread ran that much earlier or later. Instead, each collection
 * commits a {@link Reference} event holding {@code System.nanoTime()}: stamped by the
 * same chunk arithmetic as every other event, it gives the offset between the recording's
 * instants and the monotonic clock as the recording sees them. Ordered streams deliver
 * events by time, so each event is mapped with the latest reference before it.
 * <p>
 * Stream thread only, except {@link #commitReference()}.
 */
final class JfrClock {

	static final String REFERENCE = "dev.spanprofile.ClockReference";

	/**
	 * How instants are mapped before the first reference is delivered: a pairing of the
	 * clocks read now.
	 */
	private final Supplier<MonotonicEpoch.Anchor> fallback;

	/**
	 * {@code System.nanoTime()} minus the recording's epoch nanoseconds at the latest
	 * reference.
	 */
	private long offset;

	private boolean referenced;

	JfrClock() {
		this(MonotonicEpoch.Anchor::now);
	}

	JfrClock(Supplier<MonotonicEpoch.Anchor> fallback) {
		this.fallback = fallback;
	}

	/** Have {@code stream} record and deliver the references. */
	void listenTo(RecordingStream stream) {
		stream.enable(Reference.class);
		stream.onEvent(REFERENCE, this::referenced);
	}

	/**
	 * A reference whose stamp and clock reads lie further apart than this is not written:
	 * its thread lost the CPU in between (a few milliseconds on a loaded machine), and
	 * every event mapped with it would be off by as much.
	 */
	static final long MAX_READ_WINDOW_NANOS = TimeUnit.MICROSECONDS.toNanos(200);

	/**
	 * Write a reference into every recording that enables it.
	 * @return whether it was written
	 */
	static boolean commitReference() {
		return commitReference(System::nanoTime);
	}

	/**
	 * As {@link #commitReference()}, reading {@code nanoClock}.
	 * @return whether it was written; if not, the previous reference holds until the next
	 * try
	 */
	static boolean commitReference(LongSupplier nanoClock) {
		Reference reference = new Reference();
		// The event is stamped at begin(): the clock is read on either side of it.
		long before = nanoClock.getAsLong();
		reference.begin();
		long after = nanoClock.getAsLong();
		if (after - before > MAX_READ_WINDOW_NANOS) {
			return false;
		}
		reference.nanoTime = before + (after - before) / 2;
		reference.commit();
		return true;
	}

	private void referenced(RecordedEvent event) {
		this.offset = event.getLong("nanoTime") - MonotonicEpoch.epochNanos(event.getStartTime());
		this.referenced = true;
	}

	/** The instant of a delivered event on the {@code System.nanoTime()} clock. */
	long toNanoTime(Instant at) {
		if (!this.referenced) {
			return this.fallback.get().toNanoTime(at);
		}
		return MonotonicEpoch.epochNanos(at) + this.offset;
	}

	@Name(REFERENCE)
	@Label("spanprofile clock reference")
	@Description("System.nanoTime() when the event was committed, to map this recording's times onto it")
	@Category("spanprofile")
	@StackTrace(false)
	static final class Reference extends Event {

		@Label("System.nanoTime()")
		long nanoTime;

	}

}
