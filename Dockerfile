# The bot's image: the project and its dependencies installed once, when the image is built
# (docker compose build, or docker compose up --build after a change), not at every start.
FROM python:3.11-slim

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY storage ./storage
RUN pip install --no-cache-dir . \
    && useradd --create-home --uid 10001 bot && mkdir -p /app/data && chown bot /app/data

# Not root; the working directory holds nothing secret (.dockerignore keeps .env out): settings come from the
# environment (compose's env_file).
USER bot
CMD ["python", "-m", "bot"]
