package dev.spanprofile.benchmarks.overhead;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP proxy on a loopback port that places its target further away: the first bytes of
 * each answer (what the target sends after the client last sent something) are held for a
 * fixed delay before they are passed on, the rest of the answer as it comes. Each held
 * answer is one round trip, counted with the time it was held: what a profiler should
 * find the client waiting for.
 */
final class DelayingProxy implements AutoCloseable {

	private final ServerSocket server;

	private final int targetPort;

	private final long delayNanos;

	private final AtomicLong roundTrips = new AtomicLong();

	private final AtomicLong heldNanos = new AtomicLong();

	private final List<Socket> sockets = new CopyOnWriteArrayList<>();

	private final Thread acceptor;

	DelayingProxy(int targetPort, Duration delay) throws IOException {
		this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		this.targetPort = targetPort;
		this.delayNanos = delay.toNanos();
		this.acceptor = new Thread(this::accept, "proxy-accept");
		this.acceptor.setDaemon(true);
		this.acceptor.start();
	}

	int port() {
		return this.server.getLocalPort();
	}

	/** Round trips and time held so far. */
	Counts counts() {
		return new Counts(this.roundTrips.get(), this.heldNanos.get());
	}

	private void accept() {
		while (!this.server.isClosed()) {
			try {
				Socket client = this.server.accept();
				Socket target = new Socket();
				target.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), this.targetPort));
				client.setTcpNoDelay(true);
				target.setTcpNoDelay(true);
				this.sockets.add(client);
				this.sockets.add(target);
				AtomicBoolean asked = new AtomicBoolean();
				pump(client, target, asked, false);
				pump(target, client, asked, true);
			}
			catch (IOException ex) {
				if (!this.server.isClosed()) {
					System.err.println("proxy: " + ex);
				}
			}
		}
	}

	/**
	 * Copies {@code from} to {@code to}; the client's side marks that an answer is due,
	 * the target's side holds the first bytes of each due answer.
	 */
	private void pump(Socket from, Socket to, AtomicBoolean asked, boolean answers) throws IOException {
		InputStream in = from.getInputStream();
		OutputStream out = to.getOutputStream();
		Thread thread = new Thread(() -> {
			byte[] buffer = new byte[64 * 1024];
			try {
				int n;
				while ((n = in.read(buffer)) >= 0) {
					if (!answers) {
						asked.set(true);
					}
					else if (asked.getAndSet(false)) {
						hold();
					}
					out.write(buffer, 0, n);
					out.flush();
				}
			}
			catch (IOException ex) {
				// The other side closed.
			}
			finally {
				closeQuietly(from);
				closeQuietly(to);
			}
		}, answers ? "proxy-answers" : "proxy-questions");
		thread.setDaemon(true);
		thread.start();
	}

	private void hold() {
		long start = System.nanoTime();
		long deadline = start + this.delayNanos;
		long left;
		while ((left = deadline - System.nanoTime()) > 0) {
			LockSupport.parkNanos(left);
		}
		this.heldNanos.addAndGet(System.nanoTime() - start);
		this.roundTrips.incrementAndGet();
	}

	private static void closeQuietly(Socket socket) {
		try {
			socket.close();
		}
		catch (IOException ex) {
			// Closing anyway.
		}
	}

	@Override
	public void close() throws IOException {
		this.server.close();
		for (Socket socket : this.sockets) {
			closeQuietly(socket);
		}
	}

	/** Round trips and the time their answers were held. */
	record Counts(long roundTrips, long heldNanos) {

		Counts minus(Counts before) {
			return new Counts(this.roundTrips - before.roundTrips, this.heldNanos - before.heldNanos);
		}

	}

}
