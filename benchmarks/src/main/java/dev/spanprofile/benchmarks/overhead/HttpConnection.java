package dev.spanprofile.benchmarks.overhead;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One keep-alive HTTP/1.1 connection that sends the same GET again and again and reads
 * each response whole. Kept minimal on purpose: on a two-core machine every cycle the
 * load generator spends is taken from the application.
 */
final class HttpConnection implements AutoCloseable {

	private static final int TIMEOUT_MILLIS = 10_000;

	private final Socket socket;

	private final OutputStream out;

	private final InputStream in;

	private final byte[] request;

	private final byte[] requestWithHeader;

	private final StringBuilder line = new StringBuilder(128);

	private boolean closedByServer;

	HttpConnection(int port, String path) throws IOException {
		this(port, path, "");
	}

	/**
	 * A request may also carry {@code header} ({@code Name: value}) unless it is empty:
	 * see {@link #exchange(boolean)}.
	 */
	HttpConnection(int port, String path, String header) throws IOException {
		this.socket = new Socket(InetAddress.getLoopbackAddress(), port);
		this.socket.setTcpNoDelay(true);
		this.socket.setSoTimeout(TIMEOUT_MILLIS);
		this.out = this.socket.getOutputStream();
		this.in = new BufferedInputStream(this.socket.getInputStream(), 16 * 1024);
		String head = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nAccept: application/json\r\n";
		this.request = (head + "\r\n").getBytes(StandardCharsets.US_ASCII);
		this.requestWithHeader = header.isEmpty() ? this.request
				: (head + header + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
	}

	/**
	 * Send the request and read the response; returns its status code. Afterwards
	 * {@link #isClosedByServer()} tells whether the server ended the connection with this
	 * response.
	 */
	int exchange() throws IOException {
		return exchange(false);
	}

	/** The same, the request carrying the connection's header if {@code withHeader}. */
	int exchange(boolean withHeader) throws IOException {
		this.out.write(withHeader ? this.requestWithHeader : this.request);
		this.out.flush();
		String statusLine = readLine();
		if (!statusLine.startsWith("HTTP/1.1 ") || statusLine.length() < 12) {
			throw new IOException("Not an HTTP/1.1 response: " + statusLine);
		}
		int status = Integer.parseInt(statusLine.substring(9, 12));
		long contentLength = -1;
		boolean chunked = false;
		boolean close = false;
		for (String header = readLine(); !header.isEmpty(); header = readLine()) {
			String lower = header.toLowerCase(Locale.ROOT);
			if (lower.startsWith("content-length:")) {
				contentLength = Long.parseLong(lower.substring(15).trim());
			}
			else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
				chunked = true;
			}
			else if (lower.startsWith("connection:") && lower.contains("close")) {
				close = true;
			}
		}
		if (chunked) {
			skipChunks();
		}
		else if (contentLength >= 0) {
			skip(contentLength);
		}
		else {
			throw new IOException("Response without length on a keep-alive connection");
		}
		this.closedByServer = close;
		return status;
	}

	boolean isClosedByServer() {
		return this.closedByServer;
	}

	private void skipChunks() throws IOException {
		while (true) {
			String size = readLine();
			int extension = size.indexOf(';');
			long length = Long.parseLong((extension >= 0) ? size.substring(0, extension).trim() : size.trim(), 16);
			if (length == 0) {
				while (!readLine().isEmpty()) {
					// Trailers.
				}
				return;
			}
			skip(length);
			readLine();
		}
	}

	private void skip(long bytes) throws IOException {
		long remaining = bytes;
		while (remaining > 0) {
			long skipped = this.in.skip(remaining);
			if (skipped <= 0) {
				if (this.in.read() < 0) {
					throw new EOFException("Connection closed inside a response body");
				}
				skipped = 1;
			}
			remaining -= skipped;
		}
	}

	private String readLine() throws IOException {
		this.line.setLength(0);
		while (true) {
			int b = this.in.read();
			if (b < 0) {
				throw new EOFException("Connection closed inside a response");
			}
			if (b == '\n') {
				int end = this.line.length();
				if (end > 0 && this.line.charAt(end - 1) == '\r') {
					this.line.setLength(end - 1);
				}
				return this.line.toString();
			}
			this.line.append((char) b);
		}
	}

	@Override
	public void close() {
		try {
			this.socket.close();
		}
		catch (IOException ex) {
			// Nothing left to do with it.
		}
	}

}
