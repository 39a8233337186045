package dev.spanprofile.tracking;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * How long one thread has been runnable but not running, waiting for a core: the second
 * figure of Linux's {@code /proc/thread-self/schedstat} ("on-CPU ns, run-queue wait ns,
 * timeslices"). Read, beside the thread's CPU clock, where a thread enters or leaves a
 * request, so that the request's time on its threads splits into running, waiting for a
 * core and blocked, each measured by the kernel.
 * <p>
 * One per thread, owned by it: {@code /proc/thread-self} names the thread that opened the
 * file, so the channel stays that thread's. It is kept open and read at position 0 (one
 * {@code pread}, as cheap as the CPU clock's system call; opening and closing the file
 * each time costs six of them), and closed by the collector once the thread is gone
 * ({@link ThreadActivity#release}), when recording stops (a live thread opens it again at
 * its next read), or, failing that, by the channel's cleaner when the ring is collected.
 * <p>
 * The first figure, the thread's CPU time, is not used: the kernel brings it up to date
 * only at scheduler ticks and switches, so for a running thread it lags by up to a tick,
 * while the CPU clock's read brings it up to date. The run-queue figure does not lag: it
 * only grows while the thread is not running.
 */
final class RunQueueClock {

	/** What a read returns where the figure cannot be read. */
	static final long UNREAD = -1;

	private static final Path FILE = Path.of("/proc/thread-self/schedstat");

	/** Why the file cannot be read here, or {@code null} where it can. */
	private static final String UNAVAILABLE = probe();

	private final ByteBuffer buffer = ByteBuffer.allocateDirect(64);

	private FileChannel channel;

	/** Owner thread only: how many times the file was read (for tests). */
	private long reads;

	/** Whether every thread can read its own figure here. */
	static boolean available() {
		return UNAVAILABLE == null;
	}

	/**
	 * Why the figure cannot be read here (not Linux, {@code /proc} not mounted or
	 * restricted, a kernel without scheduler statistics), or {@code null} where it can.
	 */
	static String unavailableReason() {
		return UNAVAILABLE;
	}

	/**
	 * Owner thread only: open the file if it is not, so that the next {@link #now()} is
	 * one read. Done before a stretch's time is taken, since opening is a system call of
	 * its own, on whose way back a busy machine may switch the thread out.
	 */
	void open() {
		if (UNAVAILABLE == null && this.channel == null) {
			try {
				this.channel = FileChannel.open(FILE);
			}
			catch (IOException | RuntimeException ex) {
				// The read will say so.
			}
		}
	}

	/**
	 * Owner thread only: its run-queue wait so far in nanoseconds, or {@link #UNREAD}.
	 */
	long now() {
		if (UNAVAILABLE != null) {
			return UNREAD;
		}
		try {
			if (this.channel == null) {
				this.channel = FileChannel.open(FILE);
			}
			this.buffer.clear();
			this.reads++;
			this.channel.read(this.buffer, 0);
			return secondField(this.buffer);
		}
		catch (IOException | RuntimeException ex) {
			// An interrupted thread's read closes the channel (it is interruptible): this
			// point goes unread, and the next read opens the file again.
			close();
			return UNREAD;
		}
	}

	/** How many times the owner thread read the file (for tests). */
	long reads() {
		return this.reads;
	}

	/** Whether the file is open (for tests). */
	boolean isOpen() {
		return this.channel != null;
	}

	/**
	 * Any thread, once the owner is gone or recording stopped: let the file go. A read
	 * racing with it fails, goes unread, and the owner's next read opens the file again.
	 */
	void close() {
		FileChannel open = this.channel;
		this.channel = null;
		if (open != null) {
			try {
				open.close();
			}
			catch (IOException ex) {
				// Nothing is lost: it was only read.
			}
		}
	}

	/** The second decimal number of the text, or {@link #UNREAD}. */
	static long secondField(ByteBuffer text) {
		int end = text.position();
		int field = 0;
		long value = 0;
		boolean digits = false;
		for (int i = 0; i < end; i++) {
			byte c = text.get(i);
			if (c >= '0' && c <= '9') {
				value = value * 10 + (c - '0');
				digits = true;
			}
			else if (digits) {
				if (field == 1) {
					return value;
				}
				field++;
				value = 0;
				digits = false;
			}
		}
		return (field == 1 && digits) ? value : UNREAD;
	}

	private static String probe() {
		if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).startsWith("linux")) {
			return "not Linux";
		}
		RunQueueClock clock = new RunQueueClock();
		try (FileChannel channel = FileChannel.open(FILE)) {
			clock.buffer.clear();
			channel.read(clock.buffer, 0);
			String text = new String(bytes(clock.buffer), java.nio.charset.StandardCharsets.US_ASCII).trim();
			if (secondField(clock.buffer) < 0) {
				return FILE + " reads \"" + text + "\"";
			}
			if (text.startsWith("0 0 ")) {
				// What a kernel without scheduler statistics prints for every thread.
				return "the kernel keeps no scheduler statistics (" + FILE + " reads \"" + text + "\")";
			}
			return null;
		}
		catch (IOException | RuntimeException ex) {
			return FILE + " cannot be read (" + ex + ")";
		}
	}

	private static byte[] bytes(ByteBuffer buffer) {
		byte[] bytes = new byte[buffer.position()];
		for (int i = 0; i < bytes.length; i++) {
			bytes[i] = buffer.get(i);
		}
		return bytes;
	}

}
