"""The tool's own words and phrases, by language: the one table every part of rulesplay
shows its own text from (ruleset words come from the ruleset's labels).

:data:`PHRASES` holds the accounts', screens' and commands' phrases (English and Japanese,
with ``{field}`` slots); :data:`WORDS` the few words the engine puts into action labels and
display texts (yes, no, skip, seat, none); :data:`PAGE_WORDS` the web pages' buttons,
headings and status lines.
"""

from __future__ import annotations

from typing import Any

PHRASES: dict[str, dict[str, str]] = {
    "en": {
        "header": "{title}: {n} players, seed {seed}",
        "header_private": "{title}: {n} players",
        "options": "options: {options}",
        "repeat": "repeat this game: {command}",
        "unrepeatable": "a bot here moves by the clock (seconds=), so this game cannot be "
                        "repeated from its seed; with iterations= it can",
        "dealt": "Dealt {k} {cards} to each of {n} players ({src} → {dst})",
        "dealt_uneven": "Dealt {total} cards ({src} → {dst}): {each}",
        "takes": "{seat} takes the trick with {card}",
        "shuffled": "Shuffled the {zone}",
        "revealed": "{zone} is shown to all: {cards}",
        "hidden_again": "{zone} is hidden again",
        "seen_by": "{zone} is now seen by {seats}: {cards}",
        "passes": "{seat} passes",
        "passes_forced": "{seat} cannot play and passes",
        "sits_out": "{seats} sits out this trick",
        "plays_for": "for {seat}",
        "sitting_out": "(sits out)",
        "ncards": "{k} cards",
        "card": "card",
        "cards": "cards",
        "move": "{cards}: {src} → {dst}",
        "owned": "{seat}'s {zone}",
        "owned_you": "your {zone}",
        "secret": "{seat} decides in secret: {prompt}",
        "game_over": "Game over",
        "seat": "Seat",
        "score": "Score",
        "tiebreak": "Tiebreak",
        "winner": "Winner: {seats}",
        "winners": "Tied winners: {seats}",
        "winners_list": "Winners: {seats}",
        "nobody_wins": "Nobody wins.",
        "final": "Final scores",
        # the table (human seats)
        "a_card": "a card",
        "and_hidden": "and {k} hidden",
        "you": "{seat} (you)",
        "partner": "{seat} (partner)",
        "teammate": "{seat} (teammate)",
        "team": "Team",
        "team_won": "Team {team} wins",
        "teams_line": "Teams: {teams}",
        "since": "Since your last turn",
        "earlier": "… {k} earlier lines not shown",
        "top": "top",
        "hidden_count": "{k} cards, face down",
        "face_down": "face down: {zones}",
        "your_zone": "Your {zone} ({k}):",
        "empty": "empty",
        "seat_col": "seat",
        "score_col": "score",
        "your_turn": " {seat}, your turn: {prompt} ",
        "how_card": "Type a number (1-{n}) or a card's name, e.g. {example}.  Also: {commands}",
        "how": "Type a number (1-{n}) or the answer's first letters.  Also: {commands}",
        "how_value": "Type one of the numbers shown, or the word on the left of another "
                     "answer.  Also: {commands}",
        "how_one": "Only one choice: type 1 (or its name).  Also: {commands}",
        "how_number": "Type {numbers}.  Also: {commands}",
        "how_number_or": "Type {numbers}, or the word on the left of another answer.  Also: "
                         "{commands}",
        "number_from": "a number from {ranges}",
        "number_span": "{lo} to {hi}",
        "number_or": " or ",
        "numbers_some": "one of {n} numbers from {lo} to {hi} ({first}, ...)",
        "empty_value": "Type {numbers}, or 'help'.",
        "bad_many": "'{text}' is not one of the choices: type {numbers}.",
        "help_typing_value": "Type the number you choose, or the first letters of another "
                             "answer. Commands: {commands}.",
        "bad_value": "'{text}' is not one of the choices: type one of {values}.",
        "set_hint": "Choose {count} cards at once: type them on one line, separated by "
                    "spaces or commas (e.g. '{example}').",
        "set_unknown": "'{text}' names none of the cards you may choose from.",
        "set_ambiguous": "'{text}' names more than one card: type its short name.",
        "set_not_legal": "'{text}' is not a set you may choose now.",
        "set_no_number": "There are {n} sets, too many to number: type the cards instead.",
        "help_commands": "Commands: {commands}.",
        "set_number": "'{text}' is a number, not one card: type the cards by their short "
                      "names, e.g. '{example}'.",
        "bad_number": "There is no choice {k}: type a number from 1 to {n} (or 'help').",
        "ambiguous": "'{text}' could mean {options}: type its number.",
        "not_legal": "'{text}' cannot be chosen now: pick one of the {n} choices listed "
                     "(type 'help' to see why).",
        "unknown": "'{text}' is not one of the choices: type a number from 1 to {n}, a card's "
                   "name, or 'help'.",
        "empty_input": "Type a number from 1 to {n}, or 'help'.",
        "help_title": "Help",
        "help_phase": "Phase: {phase}.  {seat} decides: {prompt}.",
        "help_about": "{title}: {about}",
        "help_rule": "The rule ({where}):",
        "help_legal": "You may choose: {labels}.",
        "help_typing": "Type the number of a choice, or a card by its short name (first letters "
                       "and number, e.g. {example}) or its name. Commands: {commands}.",
        "help_typing_plain": "Type the number of a choice, or the first letters of the "
                             "answer. Commands: {commands}.",
        "no_tricks": "No trick has been finished yet.",
        "last_tricks": "Last tricks",
        "won_by": "{seat} won with",
        "saved": "Saved to {path}. Continue later with: rulesplay resume {arg}",
        "save_kept": "{path} already exists and is kept: save under another name with "
                     "'save FILE'.",
        "save_kept_ask": "{path} already exists and is kept: save under another name with "
                         "'save FILE' (at a terminal, 'save {arg}' asks whether to replace "
                         "it).",
        "quit_save": "Save the game to {path} before leaving? [Y/n] ",
        "quit_cancel": "Not quitting (answer y or n next time). Back to the game.",
        "pass_to": "{seat}'s turn. Pass the keyboard to {seat}, then press Enter.",
        "left": "Left the game without saving.",
        "left_saved": "Left the game; it is saved as it is now in {path}. Continue later "
                      "with: rulesplay resume {arg}",
        "interrupted": "Stopped.",
        "rules_failed": "The ruleset failed (below).",
        "saved_failed": "The game up to this move is saved to {path} (resuming it meets the "
                        "same failure: it is kept to look into).",
        "human_intro": "You play {seats}. Type 'help' at any question; 'save' or Ctrl-C saves "
                       "the game to {path}.",
        "resumed": "Resumed {path}: {title}, {n} players, seed {seed}, decision {k}.",
        "resumed_private": "Resumed {path}: {title}, {n} players, decision {k}.",
        "ruleset_changed": "The ruleset changed since this game was saved: {path}. The game "
                           "goes on with the rules it was saved with.",
        "log_spoils": "The log {path} holds every hand while the game runs: keep it out of "
                      "the players' sight (--log-seat N writes one with only what seat N may "
                      "know).",
        "save_spoils": "A save ({path}) holds every hand too.",
        "log_failed": "The log cannot be written ({why}); the game goes on without it.",
        "log_continues": "The game's log (the whole game so far, then the rest) goes to {path}.",
    },
    "ja": {
        "header": "{title}: {n}人, シード {seed}",
        "header_private": "{title}: {n}人",
        "options": "オプション: {options}",
        "repeat": "同じゲームの再現: {command}",
        "unrepeatable": "時間で手を決めるボット（seconds=）がいるので、このゲームはシードから"
                        "再現できません（iterations= なら再現できます）",
        "dealt": "{n}人に{k}枚ずつ配った（{src} → {dst}）",
        "dealt_uneven": "{total}枚を配った（{src} → {dst}）: {each}",
        "takes": "{seat}がトリックを取った（{card}）",
        "shuffled": "{zone}をシャッフル",
        "revealed": "{zone}を全員に公開: {cards}",
        "hidden_again": "{zone}を再び伏せた",
        "seen_by": "{zone}は{seats}にも見える: {cards}",
        "passes": "{seat}: パス",
        "passes_forced": "{seat}は出せないのでパス",
        "sits_out": "{seats}はこのトリックを休む",
        "plays_for": "（{seat}の代わり）",
        "sitting_out": "（休み）",
        "ncards": "{k}枚",
        "move": "{cards}: {src} → {dst}",
        "owned": "{seat}の{zone}",
        "owned_you": "あなたの{zone}",
        "secret": "{seat}は秘密で決めた: {prompt}",
        "game_over": "ゲーム終了",
        "seat": "席",
        "score": "得点",
        "tiebreak": "タイブレーク",
        "winner": "勝者: {seats}",
        "winners": "同点の勝者: {seats}",
        "winners_list": "勝者: {seats}",
        "nobody_wins": "勝者なし。",
        "final": "最終得点",
        "a_card": "カード1枚",
        "and_hidden": "と伏せたカード{k}枚",
        "you": "{seat}（あなた）",
        "partner": "{seat}（パートナー）",
        "teammate": "{seat}（味方）",
        "team": "チーム",
        "team_won": "チーム {team} の勝ち",
        "teams_line": "チーム: {teams}",
        "since": "前の手番から",
        "earlier": "… それより前の{k}行は省略",
        "top": "一番上",
        "hidden_count": "{k}枚（裏向き）",
        "face_down": "裏向き: {zones}",
        "your_zone": "あなたの{zone}（{k}枚）:",
        "empty": "なし",
        "seat_col": "席",
        "score_col": "得点",
        "your_turn": " {seat}、あなたの番: {prompt} ",
        "how_card": "番号（1-{n}）かカード名（例: {example}）を入力。ほかに: {commands}",
        "how": "番号（1-{n}）か答えの頭文字を入力。ほかに: {commands}",
        "how_value": "表示された数か、ほかの答えの左の語を入力。ほかに: {commands}",
        "how_one": "選択肢は1つだけ: 1 を入力。ほかに: {commands}",
        "how_number": "{numbers}を入力。ほかに: {commands}",
        "how_number_or": "{numbers}か、ほかの答えの左の語を入力。ほかに: {commands}",
        "number_from": "{ranges}の数",
        "number_span": "{lo}から{hi}まで",
        "number_or": "か",
        "numbers_some": "{lo}から{hi}までの{n}個の数（{first}、…）",
        "empty_value": "{numbers}を入力（または help）。",
        "bad_many": "「{text}」は選べません: {numbers}を入力。",
        "help_typing_value": "選ぶ数そのものか、ほかの答えの頭文字を入力。コマンド: {commands}。",
        "set_hint": "{count}枚をまとめて選びます: 1行に空白かカンマで区切って入力"
                    "（例: '{example}'）。",
        "set_unknown": "「{text}」は選べるカードのどれでもありません。",
        "set_ambiguous": "「{text}」は複数のカードに当たります: 略称で入力してください。",
        "set_not_legal": "「{text}」は今選べる組ではありません。",
        "set_no_number": "組は{n}通りあり番号では選べません: カードを入力してください。",
        "help_commands": "コマンド: {commands}。",
        "set_number": "「{text}」は数でカードではありません: 略称で入力してください"
                      "（例: '{example}'）。",
        "bad_number": "選択肢{k}はありません: 1から{n}の番号を入力（または help）。",
        "bad_value": "「{text}」は選べません: {values} のどれかを入力。",
        "ambiguous": "「{text}」は {options} のどれか: 番号を入力。",
        "not_legal": "「{text}」は今は選べません: 表示された{n}個から選んでください"
                     "（理由は help）。",
        "unknown": "「{text}」は選択肢にありません: 1から{n}の番号、カード名、"
                   "または help を入力。",
        "empty_input": "1から{n}の番号を入力（または help）。",
        "help_title": "ヘルプ",
        "help_phase": "フェーズ: {phase}。{seat}の決定: {prompt}。",
        "help_rule": "ルール（{where}）:",
        "help_legal": "選べるもの: {labels}。",
        "no_tricks": "まだ終わったトリックはありません。",
        "last_tricks": "最近のトリック",
        "won_by": "{seat}の勝ち:",
        "saved": "{path} に保存しました。続きは: rulesplay resume {arg}",
        "save_kept": "{path} は既にあるので残しました。別の名前に保存するには 'save FILE'。",
        "save_kept_ask": "{path} は既にあるので残しました。別の名前に保存するには 'save FILE'"
                         "（端末からなら 'save {arg}' で置き換えるか確かめます）。",
        "quit_save": "やめる前に {path} に保存しますか？ [Y/n] ",
        "quit_cancel": "やめません（y か n で答えてください）。ゲームに戻ります。",
        "pass_to": "{seat}の番です。{seat}に交代して Enter を押してください。",
        "left": "保存せずに終了しました。",
        "left_saved": "終了しました。今の状態は {path} に保存済みです。続きは: "
                      "rulesplay resume {arg}",
        "interrupted": "中断しました。",
        "rules_failed": "ルールの実行に失敗しました（下記）。",
        "saved_failed": "この手の前までのゲームを {path} に保存しました（再開しても同じところで"
                        "失敗します。調べるために残します）。",
        "human_intro": "あなたは{seats}です。いつでも help と入力できます。save か Ctrl-C で "
                       "{path} に保存します。",
        "resumed": "{path} を再開: {title}, {n}人, シード {seed}, {k}番目の決定から。",
        "resumed_private": "{path} を再開: {title}, {n}人, {k}番目の決定から。",
        "ruleset_changed": "このゲームを保存した後でルールが変更されました: {path}。"
                           "保存したときのルールで続けます。",
        "log_spoils": "ログ {path} にはゲーム中すべての手札が書かれます。プレイヤーに見せないで"
                      "ください（--log-seat N なら N 番の席が知り得ることだけを書きます）。",
        "save_spoils": "保存ファイル（{path}）にもすべての手札が書かれます。",
        "log_failed": "ログを書けません（{why}）。ログなしでゲームを続けます。",
        "log_continues": "このゲームのログ（最初から続きまで）は {path} に書きます。",
    },
}

def counted(n: int, one: str, many: str | None = None) -> str:
    """``n`` and its noun, in English messages: ``1 game``, ``2,000 games`` (``many``: the
    plural when it is not the noun with an ``s``)."""
    return f"1 {one}" if n == 1 else f"{n:,} {many or one + 's'}"


def tr(lang: str | None, key: str, **fields: Any) -> str:
    """A tool phrase in ``lang`` (falling back to English), with ``fields`` filled in.

    Raises:
        KeyError: ``key`` is not a phrase.
    """
    phrases = PHRASES.get(lang or "en", PHRASES["en"])
    return phrases.get(key, PHRASES["en"][key]).format(**fields)


WORDS: dict[str, dict[str, str]] = {
    "": {"yes": "yes", "no": "no", "skip": "skip", "seat": "Seat {n}", "none": "none",
         "card_of": "card {k} of {n}"},
    "ja": {"yes": "はい", "no": "いいえ", "skip": "スキップ", "seat": "席{n}", "none": "なし",
           "card_of": "{n}枚中{k}枚目"},
}


def word(lang: str | None, key: str) -> str:
    """A tool word in ``lang`` ("ja", or None/"" for English), falling back to English.

    Args:
        lang: display language code.
        key: one of ``yes``, ``no``, ``skip``, ``seat`` (a format string with ``{n}``),
            ``none``, ``card_of`` (a blind pick's label, with ``{k}`` and ``{n}``).

    Raises:
        KeyError: ``key`` is not a tool word.
    """
    return WORDS.get(lang or "", WORDS[""]).get(key, WORDS[""][key])


# The web pages' own words (``rulesplay serve``): buttons, headings and status lines. The
# pages' scripts get the table for the server's language (:func:`page_words`); the server
# fills its templates from it too (:func:`page_word`). ``{field}`` slots as in PHRASES.
PAGE_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "nav_tables": "Tables", "nav_playground": "Playground", "nav_simulate": "Simulate",
        "start_table": "Start a table", "running": "Tables being played",
        "none_running": "No table is being played now.",
        "running_item": "{title}: {n} players, {k} decisions so far",
        "watch": "watch",
        "new_table": "New table", "players": "Players", "seats": "Seats",
        "options": "Options", "no_options": "This ruleset has no options.",
        "create": "Create the table", "links": "Links",
        "links_help": "Each human seat has its own secret link: open yours, send the others "
                      "theirs (on another device, the server must listen on the network: "
                      "--host 0.0.0.0). Anyone with a seat's link plays that seat.",
        "iterations": "iterations", "default": "default ({value})",
        "per_players": "{n} players: {value}",
        "human": "human", "open": "open", "copy": "copy link", "copied": "copied",
        "spectators": "Spectators",
        "table": "Table", "no_table": "There is no such table on this server.",
        "no_ruleset": "No ruleset named \"{name}\" here; choose one on the start page.",
        "connecting": "Connecting…", "account": "Account",
        "watching": "watching (public view)",
        "over": "{title} · game over", "to_move": "{phase} · {seat} to move",
        "reconnecting": "Connection lost; reconnecting…",
        "play_chosen": "Play the cards chosen ({n}; choose {want})",
        "person": "person", "bot": "bot: {kind}", "score": "score",
        "your_zones": "Your other zones", "result": "Result",
        "download_log": "Download the game's log (for rulesplay replay)",
        # the playground
        "check": "Check", "hint_start": "Write a ruleset, or start from a game:",
        "hint_extends": "A pasted ruleset may extend a game that comes with rulesplay "
                        "(extends \"NAME\"); it includes no other file.",
        "phase_graph": "Phase graph", "col_option": "option", "col_type": "type",
        "col_default": "default", "col_doc": "description",
        "play_bots": "Play against bots", "simulate_it": "Simulate it",
        "seat_n": "Seat {n}", "checking": "checking…",
        "no_answer": "the server did not answer: {why}", "refused": "refused ({code})",
        "one_error": "{n} error: click one to go to its line",
        "n_errors": "{n} errors: click one to go to its line", "ok": "ok",
        "one_warning": "ok ({n} warning)", "n_warnings": "ok ({n} warnings)",
        "changed": "changed: check it again",
        "changed_long": "The text changed since it was checked: check it again.",
        "started": "Table started. Each seat's link is that seat's own: open it on the "
                   "device of the person who sits there.",
        "watch_spectator": "watch (spectator)",
        # the simulation page
        "ruleset": "Ruleset", "compare_with": "Compare with a variant",
        "simulate_only": "(none: simulate only)", "usual": "usual", "games": "Games",
        "bot_word": "Bot", "seed": "Seed", "pasted": "The pasted ruleset", "run": "Run",
        "stop": "Stop", "progress": "{done} of {games} games",
        "each_ruleset": " (each ruleset)", "verdict": "Verdict",
        "score_distribution": "Final score distribution",
        "win_rate_caption": "Win rate with its 95% interval (dashed: a fair share)",
        "base": "Base", "variant": "Variant",
    },
    "ja": {
        "nav_tables": "テーブル", "nav_playground": "プレイグラウンド",
        "nav_simulate": "シミュレーション",
        "start_table": "テーブルを始める", "running": "進行中のテーブル",
        "none_running": "進行中のテーブルはありません。",
        "running_item": "{title}: {n}人, ここまで{k}回の決定",
        "watch": "観戦",
        "new_table": "新しいテーブル", "players": "人数", "seats": "席",
        "options": "オプション", "no_options": "このルールにはオプションがありません。",
        "create": "テーブルを作る", "links": "リンク",
        "links_help": "人が座る席にはそれぞれ秘密のリンクがあります。自分のリンクを開き、ほかの"
                      "人にはその人のリンクを送ってください（別の端末から入るには、サーバーが"
                      "ネットワークで待ち受ける必要があります: --host 0.0.0.0）。席のリンクを"
                      "持つ人はだれでもその席で遊べます。",
        "iterations": "反復回数", "default": "既定（{value}）",
        "per_players": "{n}人: {value}",
        "human": "人", "open": "開く", "copy": "リンクをコピー", "copied": "コピーしました",
        "spectators": "観戦者",
        "table": "テーブル", "no_table": "このサーバーにそのテーブルはありません。",
        "no_ruleset": "「{name}」というルールはありません。スタートページで選んでください。",
        "connecting": "接続中…", "account": "経過",
        "watching": "観戦中（公開情報のみ）",
        "over": "{title} · ゲーム終了", "to_move": "{phase} · {seat}の番",
        "reconnecting": "接続が切れました。再接続中…",
        "play_chosen": "選んだカードを出す（{n}枚、{want}枚選ぶ）",
        "person": "人", "bot": "ボット: {kind}", "score": "得点",
        "your_zones": "あなたのほかの場所", "result": "結果",
        "download_log": "このゲームのログをダウンロード（rulesplay replay 用）",
        "check": "チェック", "hint_start": "ルールを書くか、ゲームから始めてください:",
        "hint_extends": "貼り付けたルールは rulesplay に付属のゲームを拡張できます"
                        "（extends \"NAME\"）。ほかのファイルは読み込みません。",
        "phase_graph": "フェーズ図", "col_option": "オプション", "col_type": "型",
        "col_default": "既定値", "col_doc": "説明",
        "play_bots": "ボットと遊ぶ", "simulate_it": "シミュレーションする",
        "seat_n": "席{n}", "checking": "チェック中…",
        "no_answer": "サーバーが応答しません: {why}", "refused": "拒否されました（{code}）",
        "one_error": "エラー{n}件: クリックでその行へ",
        "n_errors": "エラー{n}件: クリックでその行へ", "ok": "OK",
        "one_warning": "OK（警告{n}件）", "n_warnings": "OK（警告{n}件）",
        "changed": "変更あり: もう一度チェックしてください",
        "changed_long": "チェックの後で本文が変わりました。もう一度チェックしてください。",
        "started": "テーブルを作りました。席のリンクはその席だけのものです: 座る人の端末で"
                   "開いてください。",
        "watch_spectator": "観戦する",
        "ruleset": "ルール", "compare_with": "比べるバリアント",
        "simulate_only": "（なし: シミュレーションのみ）", "usual": "通常", "games": "ゲーム数",
        "bot_word": "ボット", "seed": "シード", "pasted": "貼り付けたルール", "run": "実行",
        "stop": "停止", "progress": "{games}ゲーム中{done}ゲーム",
        "each_ruleset": "（各ルール）", "verdict": "判定",
        "score_distribution": "最終得点の分布",
        "win_rate_caption": "勝率と95%区間（破線: 公平な取り分）",
        "base": "基準", "variant": "バリアント",
    },
}


def page_words(lang: str | None) -> dict[str, str]:
    """The web pages' words in ``lang`` (any word it lacks in English): what a page's
    script is given."""
    return {**PAGE_WORDS["en"], **PAGE_WORDS.get(lang or "en", {})}


def page_word(lang: str | None, key: str, **fields: Any) -> str:
    """One of the web pages' words in ``lang`` (falling back to English), ``fields`` filled.

    Raises:
        KeyError: ``key`` is not a page word.
    """
    return page_words(lang)[key].format(**fields)
