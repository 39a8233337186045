package dev.spanprofile.otlp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.zip.GZIPOutputStream;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.spanprofile.upload.UploadQueue;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesPartialSuccess;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceResponse;

/**
 * POSTs one encoded request as OTLP/HTTP protobuf, retrying with backoff on what the OTLP
 * specification calls retryable (429, 502, 503, 504, no connection), up to the configured
 * tries. Headers are never logged.
 */
final class OtlpHttpSender implements UploadQueue.Uploader<byte[]> {

	private static final System.Logger logger = System.getLogger(OtlpHttpSender.class.getName());

	private static final Duration FIRST_BACKOFF = Duration.ofMillis(500);

	private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);

	private final OtlpSettings settings;

	private final HttpClient client;

	private volatile UploadQueue<byte[]> queue;

	private volatile boolean partialSuccessLogged;

	OtlpHttpSender(OtlpSettings settings) {
		this.settings = settings;
		this.client = HttpClient.newBuilder().connectTimeout(settings.timeout()).build();
	}

	void reportTo(UploadQueue<byte[]> queue) {
		this.queue = queue;
	}

	@Override
	public void upload(byte[] request) throws InterruptedException {
		byte[] body = this.settings.gzip() ? gzip(request) : request;
		Duration backoff = FIRST_BACKOFF;
		for (int attempt = 1; attempt <= this.settings.maxTries(); attempt++) {
			this.queue.attemptStarted();
			String failure = send(body);
			if (failure == null) {
				return;
			}
			this.queue.attemptFailed(failure);
			if (!failure.startsWith("retryable") || attempt == this.settings.maxTries()) {
				return;
			}
			Thread.sleep(backoff.toMillis());
			backoff = (backoff.compareTo(MAX_BACKOFF.dividedBy(2)) < 0) ? backoff.multipliedBy(2) : MAX_BACKOFF;
		}
	}

	/**
	 * @return null when accepted, else why not (starting with "retryable" when worth
	 * another try)
	 */
	private String send(byte[] body) throws InterruptedException {
		HttpRequest.Builder request = HttpRequest.newBuilder(this.settings.endpoint())
			.timeout(this.settings.timeout())
			.header("Content-Type", "application/x-protobuf")
			.POST(HttpRequest.BodyPublishers.ofByteArray(body));
		if (this.settings.gzip()) {
			request.header("Content-Encoding", "gzip");
		}
		this.settings.headers().forEach(request::header);
		HttpResponse<byte[]> response;
		try {
			response = this.client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
		}
		catch (IOException ex) {
			return "retryable: " + ex.getClass().getSimpleName();
		}
		int status = response.statusCode();
		if (status >= 200 && status < 300) {
			partialSuccess(response.body());
			return null;
		}
		boolean retryable = status == 429 || status == 502 || status == 503 || status == 504;
		return (retryable ? "retryable: HTTP " : "rejected: HTTP ") + status;
	}

	private void partialSuccess(byte[] body) {
		if (this.partialSuccessLogged || body.length == 0) {
			return;
		}
		try {
			ExportProfilesPartialSuccess partial = ExportProfilesServiceResponse.parseFrom(body).getPartialSuccess();
			if (partial.getRejectedProfiles() > 0 || !partial.getErrorMessage().isEmpty()) {
				this.partialSuccessLogged = true;
				logger.log(System.Logger.Level.WARNING,
						"spanprofile: " + this.settings.endpointForLogs() + " accepted the profiles only in part ("
								+ partial.getRejectedProfiles() + " rejected): " + partial.getErrorMessage()
								+ ". Logged once.");
			}
		}
		catch (InvalidProtocolBufferException ex) {
			// A 2xx with a body that is not a response message: the profiles were
			// accepted all the same.
		}
	}

	private static byte[] gzip(byte[] bytes) {
		ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length / 4 + 64);
		try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
			gzip.write(bytes);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return out.toByteArray();
	}

}
