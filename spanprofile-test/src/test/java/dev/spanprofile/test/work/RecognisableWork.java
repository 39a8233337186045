package dev.spanprofile.test.work;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * What the test applications' requests do, in methods whose names the assertions look
 * for: burn CPU, allocate, wait on a slow peer. Shared by the MVC and the WebFlux
 * application.
 */
public final class RecognisableWork {

	static volatile long sink;

	static volatile Object escape;

	private RecognisableWork() {
	}

	/**
	 * Burns {@code cpuMillis} of this thread's CPU time, all of it under
	 * {@link #recognisablyBurningMethod}.
	 */
	public static String burn(long cpuMillis) {
		long until = cpuNanos() + cpuMillis * 1_000_000;
		while (cpuNanos() < until) {
			sink += recognisablyBurningMethod(200_000);
		}
		return "burnt";
	}

	static long recognisablyBurningMethod(int rounds) {
		long x = 7;
		for (int i = 0; i < rounds; i++) {
			x = x * 6364136223846793005L + 1442695040888963407L;
			x ^= (x >>> 31);
		}
		return x;
	}

	/** Allocates {@code kilobytes} in arrays of 1040 bytes each (header included). */
	public static String allocate(long kilobytes) {
		recognisablyAllocatingMethod(kilobytes * 1024);
		return "allocated";
	}

	static void recognisablyAllocatingMethod(long bytes) {
		for (long done = 0; done < bytes; done += 1040) {
			escape = new byte[1024];
		}
	}

	/** Reads one byte from {@code peer}, which answers after its delay. */
	public static String askSlowPeer(SlowPeer peer) throws IOException {
		try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), peer.port());
				InputStream in = socket.getInputStream()) {
			return "peer said " + in.read();
		}
	}

	private static long cpuNanos() {
		return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
	}

	/**
	 * A loopback server that answers each connection with one byte after
	 * {@code delayMillis}.
	 */
	public static final class SlowPeer implements AutoCloseable {

		private final ServerSocket server;

		public SlowPeer(long delayMillis) throws IOException {
			this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
			Thread thread = new Thread(() -> {
				while (!this.server.isClosed()) {
					try (Socket socket = this.server.accept()) {
						Thread.sleep(delayMillis);
						socket.getOutputStream().write(42);
					}
					catch (IOException | InterruptedException ex) {
						// Closed: the test is over.
					}
				}
			}, "slow-peer");
			thread.setDaemon(true);
			thread.start();
		}

		public int port() {
			return this.server.getLocalPort();
		}

		@Override
		public void close() throws IOException {
			this.server.close();
		}

	}

}
