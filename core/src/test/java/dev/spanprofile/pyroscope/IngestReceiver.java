package dev.spanprofile.pyroscope;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.zip.GZIPInputStream;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.pyroscope.labels.pb.JfrLabels;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * A stand-in for a Pyroscope server on loopback: accepts {@code POST /ingest} as the
 * agent sends it (multipart {@code jfr} and {@code labels} parts, each gzip-compressed)
 * and keeps every request, answering with scripted status codes first and 200 afterwards.
 */
public final class IngestReceiver implements AutoCloseable {

	final List<Upload> requests = Collections.synchronizedList(new ArrayList<>());

	private final ConcurrentLinkedDeque<Integer> scriptedStatuses = new ConcurrentLinkedDeque<>();

	private final HttpServer server;

	public IngestReceiver(int port) throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
		this.server.createContext("/ingest", this::ingest);
		this.server.start();
	}

	public IngestReceiver() throws IOException {
		this(0);
	}

	public String address() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort();
	}

	public int port() {
		return this.server.getAddress().getPort();
	}

	/** Answer the next requests with these statuses, then 200. */
	public void respondWith(Integer... statuses) {
		this.scriptedStatuses.addAll(Arrays.asList(statuses));
	}

	public List<Upload> accepted() {
		synchronized (this.requests) {
			return this.requests.stream().filter((upload) -> upload.status == 200).toList();
		}
	}

	private void ingest(HttpExchange exchange) throws IOException {
		try (exchange) {
			Integer scripted = this.scriptedStatuses.pollFirst();
			int status = (scripted != null) ? scripted : 200;
			byte[] body = exchange.getRequestBody().readAllBytes();
			String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
			Map<String, String> headers = new HashMap<>();
			exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(), values.get(0)));
			this.requests.add(new Upload(status, query(exchange.getRequestURI().getRawQuery()), headers,
					multipart(body, contentType)));
			exchange.sendResponseHeaders(status, -1);
		}
	}

	private static Map<String, String> query(String raw) {
		Map<String, String> params = new HashMap<>();
		for (String pair : raw.split("&")) {
			int eq = pair.indexOf('=');
			params.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
					URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
		}
		return params;
	}

	/** Form-data parts by name, gunzipped. */
	private static Map<String, byte[]> multipart(byte[] body, String contentType) throws IOException {
		String boundary = "--" + contentType.substring(contentType.indexOf("boundary=") + "boundary=".length());
		byte[] delimiter = ("\r\n" + boundary).getBytes(StandardCharsets.ISO_8859_1);
		Map<String, byte[]> parts = new HashMap<>();
		int start = indexOf(body, boundary.getBytes(StandardCharsets.ISO_8859_1), 0) + boundary.length() + 2;
		while (start < body.length) {
			int headersEnd = indexOf(body, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1), start);
			String partHeaders = new String(body, start, headersEnd - start, StandardCharsets.ISO_8859_1);
			int end = indexOf(body, delimiter, headersEnd + 4);
			byte[] content = Arrays.copyOfRange(body, headersEnd + 4, end);
			int nameStart = partHeaders.indexOf("name=\"") + 6;
			parts.put(partHeaders.substring(nameStart, partHeaders.indexOf('"', nameStart)), gunzip(content));
			start = end + delimiter.length;
			if (body[start] == '-' && body[start + 1] == '-') {
				break;
			}
			start += 2;
		}
		return parts;
	}

	private static byte[] gunzip(byte[] content) throws IOException {
		if (content.length < 2 || (content[0] & 0xff) != 0x1f || (content[1] & 0xff) != 0x8b) {
			return content;
		}
		try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(content))) {
			return in.readAllBytes();
		}
	}

	private static int indexOf(byte[] haystack, byte[] needle, int from) {
		outer: for (int i = from; i <= haystack.length - needle.length; i++) {
			for (int j = 0; j < needle.length; j++) {
				if (haystack[i + j] != needle[j]) {
					continue outer;
				}
			}
			return i;
		}
		throw new IllegalStateException("multipart delimiter not found");
	}

	@Override
	public void close() {
		this.server.stop(0);
	}

	/** One request as received. */
	public record Upload(int status, Map<String, String> query, Map<String, String> headers,
			Map<String, byte[]> parts) {

		public JfrLabels.LabelsSnapshot labels() throws IOException {
			byte[] labels = this.parts.get("labels");
			return (labels != null) ? JfrLabels.LabelsSnapshot.parseFrom(labels)
					: JfrLabels.LabelsSnapshot.getDefaultInstance();
		}

		/** The CPU samples in the uploaded JFR, read with the JDK's own parser. */
		public List<Sample> samples() throws IOException {
			Path file = Files.createTempFile("ingest", ".jfr");
			try {
				Files.write(file, this.parts.get("jfr"));
				List<Sample> samples = new ArrayList<>();
				for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
					if (!event.getEventType().getName().equals("jdk.ExecutionSample")) {
						continue;
					}
					List<String> methods = new ArrayList<>();
					if (event.getStackTrace() != null) {
						for (RecordedFrame frame : event.getStackTrace().getFrames()) {
							methods.add(frame.getMethod().getName());
						}
					}
					samples.add(new Sample(event.getLong("spanId"), event.getLong("spanName"),
							event.getLong("traceIdHi"), event.getLong("traceIdLo"), methods));
				}
				return samples;
			}
			finally {
				Files.deleteIfExists(file);
			}
		}

		/**
		 * The allocation ({@code jdk.ObjectAllocationInNewTLAB},
		 * {@code jdk.ObjectAllocationOutsideTLAB}) or lock ({@code jdk.JavaMonitorEnter},
		 * {@code jdk.ThreadPark}) events in the uploaded JFR, each with the weight
		 * Pyroscope's parser gives it (bytes, nanoseconds) and its span label where the
		 * event has one.
		 */
		public List<Event> events(String... types) throws IOException {
			List<String> wanted = List.of(types);
			Path file = Files.createTempFile("ingest", ".jfr");
			try {
				Files.write(file, this.parts.get("jfr"));
				List<Event> events = new ArrayList<>();
				for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
					String type = event.getEventType().getName();
					if (!wanted.contains(type)) {
						continue;
					}
					long weight = switch (type) {
						case "jdk.ObjectAllocationInNewTLAB" -> event.getLong("tlabSize");
						case "jdk.ObjectAllocationOutsideTLAB" -> event.getLong("allocationSize");
						default -> event.getDuration().toNanos();
					};
					boolean labelled = event.hasField("spanId");
					events.add(new Event(type, labelled, labelled ? event.getLong("spanId") : 0,
							labelled ? event.getLong("spanName") : 0, weight, methods(event)));
				}
				return events;
			}
			finally {
				Files.deleteIfExists(file);
			}
		}

		private static List<String> methods(RecordedEvent event) {
			List<String> methods = new ArrayList<>();
			if (event.getStackTrace() != null) {
				for (RecordedFrame frame : event.getStackTrace().getFrames()) {
					methods.add(frame.getMethod().getType().getName() + "." + frame.getMethod().getName());
				}
			}
			return methods;
		}

	}

	/**
	 * One allocation or lock event; {@code labelled} says whether the event type carries
	 * span fields at all. {@code methods} leaf first, each as
	 * {@code package.Class.method}.
	 */
	public record Event(String type, boolean labelled, long spanId, long spanName, long weight, List<String> methods) {

		public boolean in(String method) {
			return this.methods.stream().anyMatch((frame) -> frame.endsWith("." + method));
		}

		public boolean inClass(String className) {
			return this.methods.stream().anyMatch((frame) -> frame.startsWith(className + "."));
		}

	}

	/** One CPU sample with its labels; {@code methods} leaf first. */
	public record Sample(long spanId, long spanName, long traceIdHigh, long traceIdLow, List<String> methods) {

		public boolean in(String method) {
			return this.methods.contains(method);
		}

	}

}
