package dev.spanprofile.waiting;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A downstream service on loopback that answers each question after as many milliseconds
 * as the question says, as a database or an HTTP service under load would: the caller's
 * read blocks for that long. Its threads run outside any span, so only the caller's
 * waiting is a request's.
 */
public final class SlowPeer implements AutoCloseable {

	private final ServerSocket server;

	private final Thread acceptor;

	public SlowPeer() throws IOException {
		this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		this.acceptor = new Thread(this::accept, "slow-peer");
		this.acceptor.setDaemon(true);
		this.acceptor.start();
	}

	public int port() {
		return this.server.getLocalPort();
	}

	/**
	 * Asks the peer to answer after {@code millis} and waits for the answer, connected by
	 * the name {@code localhost} as an application names its database; answers the
	 * nanoseconds the read blocked, measured around it.
	 */
	public long ask(long millis) throws IOException {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port()), 5_000);
			socket.setSoTimeout(30_000);
			OutputStream out = socket.getOutputStream();
			out.write((millis + "\n").getBytes(StandardCharsets.US_ASCII));
			out.flush();
			long start = System.nanoTime();
			int answer = socket.getInputStream().read();
			long waited = System.nanoTime() - start;
			if (answer != 'k') {
				throw new IOException("The slow peer answered " + answer);
			}
			return waited;
		}
	}

	private void accept() {
		while (!this.server.isClosed()) {
			try {
				Socket connection = this.server.accept();
				Thread answering = new Thread(() -> answer(connection), "slow-peer-answer");
				answering.setDaemon(true);
				answering.start();
			}
			catch (IOException ex) {
				// Closed: the application stops.
			}
		}
	}

	private static void answer(Socket connection) {
		try (connection) {
			BufferedReader in = new BufferedReader(
					new InputStreamReader(connection.getInputStream(), StandardCharsets.US_ASCII));
			long millis = Long.parseLong(in.readLine().trim());
			Thread.sleep(millis);
			connection.getOutputStream().write('k');
			connection.getOutputStream().flush();
		}
		catch (IOException | RuntimeException ex) {
			// The caller sees the connection close and fails its request.
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public void close() throws IOException {
		this.server.close();
	}

}
