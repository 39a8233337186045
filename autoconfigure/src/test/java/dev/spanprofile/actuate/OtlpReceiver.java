package dev.spanprofile.actuate;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.zip.GZIPInputStream;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceResponse;

/**
 * A loopback OTLP/HTTP profiles receiver: decodes every request with the
 * opentelemetry-proto classes and answers with the statuses it is told to, then 200.
 */
final class OtlpReceiver implements AutoCloseable {

	static final String PATH = "/v1development/profiles";

	private final HttpServer server;

	private final Deque<Integer> statuses = new ArrayDeque<>();

	private final List<Received> received = new ArrayList<>();

	private final List<String> undecodable = new ArrayList<>();

	private volatile CountDownLatch hold;

	OtlpReceiver(int... firstStatuses) throws IOException {
		for (int status : firstStatuses) {
			this.statuses.add(status);
		}
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.createContext(PATH, this::handle);
		this.server.start();
	}

	String endpoint() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort() + PATH;
	}

	/**
	 * Requests from now on get no answer until {@link #release()}: a receiver that hangs.
	 */
	void hang() {
		this.hold = new CountDownLatch(1);
	}

	void release() {
		CountDownLatch latch = this.hold;
		if (latch != null) {
			latch.countDown();
		}
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			CountDownLatch latch = this.hold;
			if (latch != null) {
				latch.await();
			}
			byte[] body = exchange.getRequestBody().readAllBytes();
			String encoding = exchange.getRequestHeaders().getFirst("Content-Encoding");
			String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
			String authorization = exchange.getRequestHeaders().getFirst("Authorization");
			byte[] plain = "gzip".equals(encoding) ? gunzip(body) : body;
			int status;
			synchronized (this) {
				Integer scripted = this.statuses.poll();
				status = (scripted != null) ? scripted : 200;
				try {
					this.received.add(new Received(ExportProfilesServiceRequest.parseFrom(plain), plain, status,
							contentType, encoding, authorization));
				}
				catch (IOException ex) {
					this.undecodable.add(ex.toString());
					status = 400;
				}
			}
			byte[] answer = (status == 200) ? ExportProfilesServiceResponse.getDefaultInstance().toByteArray()
					: new byte[0];
			exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
			exchange.sendResponseHeaders(status, (answer.length == 0) ? -1 : answer.length);
			if (answer.length > 0) {
				exchange.getResponseBody().write(answer);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static byte[] gunzip(byte[] body) throws IOException {
		try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
			return in.readAllBytes();
		}
	}

	synchronized List<Received> received() {
		return new ArrayList<>(this.received);
	}

	synchronized List<String> undecodable() {
		return new ArrayList<>(this.undecodable);
	}

	@Override
	public void close() {
		release();
		this.server.stop(0);
	}

	/** One request as decoded, with the status it was answered. */
	record Received(ExportProfilesServiceRequest request, byte[] body, int status, String contentType,
			String contentEncoding, String authorization) {

		boolean sameBodyAs(Received other) {
			return Arrays.equals(this.body, other.body);
		}

	}

}
