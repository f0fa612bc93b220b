# The app image: one uvicorn process serving the API, the room sockets and the client.
FROM python:3.11-slim
WORKDIR /srv
COPY pyproject.toml README.md ./
COPY app ./app
COPY migrations ./migrations
COPY alembic.ini ./
COPY static ./static
RUN pip install --no-cache-dir .
ENV SPITE_DATABASE_URL=sqlite:////data/spite.db
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --retries=3 \
  CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz').status != 200)"
# app.serve: uvicorn with the header timeout, connection cap and frame limit of docs/operations.md,
# no per-message deflate (it doubles the memory of an idle socket), no access log. Behind a proxy,
# set SPITE_TRUSTED_PROXIES to the proxy's address: only its X-Forwarded-For is read (the
# rightmost untrusted entry); nothing a client writes there is believed (docs/operations.md).
# SIGTERM drains the instance first (app/web/http/shutdown.py).
CMD ["python", "-m", "app.serve", "--host", "0.0.0.0", "--port", "8000"]
