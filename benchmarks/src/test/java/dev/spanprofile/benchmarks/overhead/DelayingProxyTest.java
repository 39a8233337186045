package dev.spanprofile.benchmarks.overhead;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DelayingProxyTest {

	@Test
	void eachAnswerIsHeldAndCountedOnce() throws Exception {
		try (ServerSocket echo = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
				DelayingProxy proxy = new DelayingProxy(echo.getLocalPort(), Duration.ofMillis(8))) {
			Thread server = new Thread(() -> {
				try (Socket socket = echo.accept()) {
					InputStream in = socket.getInputStream();
					OutputStream out = socket.getOutputStream();
					int b;
					while ((b = in.read()) >= 0) {
						// An answer in two writes: held once, counted once.
						out.write(b);
						out.flush();
						out.write(b);
						out.flush();
					}
				}
				catch (Exception ex) {
					// Closed.
				}
			});
			server.setDaemon(true);
			server.start();
			try (Socket client = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
				client.setTcpNoDelay(true);
				for (int i = 0; i < 3; i++) {
					long start = System.nanoTime();
					client.getOutputStream().write('a' + i);
					client.getOutputStream().flush();
					assertThat(client.getInputStream().read()).isEqualTo('a' + i);
					assertThat(client.getInputStream().read()).isEqualTo('a' + i);
					assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(Duration.ofMillis(8).toNanos());
				}
			}
			DelayingProxy.Counts counts = proxy.counts();
			assertThat(counts.roundTrips()).isEqualTo(3);
			assertThat(counts.heldNanos()).isBetween(Duration.ofMillis(24).toNanos(), Duration.ofSeconds(5).toNanos());
		}
	}

}
